"""No models: the module is here so Django sends this app's ``post_migrate`` (it skips apps
without one), the signal ``apps.GargantaSiteConfig`` seeds every campaign on."""
