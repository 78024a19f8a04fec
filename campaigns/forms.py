"""What the site's forms share: the one-time request key that makes a double post write once."""

from __future__ import annotations

import uuid

from django import forms


def one_time_key() -> str:
    """A fresh key for one rendered form (32 hex digits)."""
    return uuid.uuid4().hex


def request_key_field() -> forms.CharField:
    """The hidden field carrying a new key per rendered form: posting the same form twice (a
    double click, a reload) records one entry; the services replay the first."""
    return forms.CharField(widget=forms.HiddenInput, required=False, initial=one_time_key)
