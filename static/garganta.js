/* Garganta: three small things the pages do when JavaScript is on; without it the pages work
   the same (the server's confirmation step; the text typed is what the form posts). */
(function () {
  "use strict";

  /* 1. An irreversible action asks first (garganta_site/confirm.py). A form (or the button
     that submits it) with data-confirm asks in a dialog; yes adds confirm=1 and lets the form (or htmx) go, Cancel sends
     nothing. Capture phase: this runs before htmx sees the submit. */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var old = form.querySelector("input[name=confirm][data-added]");
    if (old) old.remove();
    // The button's own question (the one button of a form that cannot be undone), else the form's.
    var button = event.submitter;
    var prompt = (button && button.dataset.confirm) || form.dataset.confirm;
    if (!prompt) return;
    if (!window.confirm(prompt)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    var yes = document.createElement("input");
    yes.type = "hidden";
    yes.name = "confirm";
    yes.value = "1";
    yes.dataset.added = "";
    form.appendChild(yes);
  }, true);

  /* 2. "Apara com": a select whose options are grouped by combatant (data-follows names the
     defender's select) shows only the chosen defender's group; the server checks it too. */
  function follow(root) {
    root.querySelectorAll("select[data-follows]").forEach(function (select) {
      var leader = document.getElementById(select.dataset.follows);
      if (!leader || select.dataset.following) return;
      select.dataset.following = "1";
      function update() {
        var chosen = leader.selectedOptions[0];
        var name = chosen && chosen.value ? chosen.textContent.trim() : "";
        select.querySelectorAll("optgroup").forEach(function (group) {
          var mine = group.label === name;
          group.hidden = !mine;
          group.disabled = !mine;
        });
        var picked = select.selectedOptions[0];
        if (picked && picked.parentElement.tagName === "OPTGROUP" && picked.parentElement.hidden) select.value = "";
      }
      leader.addEventListener("change", update);
      update();
    });
  }
  document.addEventListener("htmx:load", function (event) { follow(event.target); });
  document.addEventListener("DOMContentLoaded", function () { follow(document); });

  /* 3. What the user types in a text area is kept as a draft (localStorage) until the form
     that holds it is accepted, so a session that lapsed (the login, then back here) or a
     closed tab loses nothing: an empty text area gets its draft back, with a note. */
  var PREFIX = "garganta-rascunho:";

  function keyOf(area) {
    var form = area.form;
    return PREFIX + location.pathname + "|" + (form ? form.getAttribute("action") : "") + "|" + area.name;
  }

  function read(key) {
    try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
  }

  function restore(root) {
    root.querySelectorAll("form textarea[name]").forEach(function (area) {
      var draft = read(keyOf(area));
      if (!draft || area.value.trim() || !draft.text) return;
      area.value = draft.text;
      if (!area.nextElementSibling || !area.nextElementSibling.classList.contains("draft-note")) {
        var note = document.createElement("span");
        note.className = "draft-note small muted";
        note.setAttribute("role", "status");
        note.textContent = "Rascunho recuperado: ainda não foi enviado.";
        area.insertAdjacentElement("afterend", note);
      }
    });
  }

  function forget(form, onlySent) {
    form.querySelectorAll("textarea[name]").forEach(function (area) {
      var key = keyOf(area);
      var draft = read(key);
      if (draft && (!onlySent || draft.sent)) localStorage.removeItem(key);
    });
  }

  document.addEventListener("input", function (event) {
    var area = event.target;
    if (!(area instanceof HTMLTextAreaElement) || !area.form || !area.name) return;
    if (area.value) localStorage.setItem(keyOf(area), JSON.stringify({ text: area.value }));
    else localStorage.removeItem(keyOf(area));
  });

  /* A plain form's submit leaves the page: its drafts are marked sent, and the next page
     forgets them — unless that page is the login (the session had lapsed). */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || form.hasAttribute("hx-post")) return;
    form.querySelectorAll("textarea[name]").forEach(function (area) {
      if (area.value) localStorage.setItem(keyOf(area), JSON.stringify({ text: area.value, sent: true }));
    });
  });

  /* Before the answer is swapped in (and restore() sees the new, empty text area). */
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (!form || !xhr) return;
    if (xhr.status >= 200 && xhr.status < 300 && !xhr.getResponseHeader("HX-Redirect")) forget(form, false);
  });

  document.addEventListener("htmx:load", function (event) { restore(event.target); });

  document.addEventListener("DOMContentLoaded", function () {
    var login = document.querySelector("form input[name=password]");
    Object.keys(localStorage).forEach(function (key) {
      if (key.indexOf(PREFIX) !== 0) return;
      var draft = read(key);
      if (!draft || !draft.sent) return;
      if (login) localStorage.setItem(key, JSON.stringify({ text: draft.text }));
      else localStorage.removeItem(key);
    });
    restore(document);
  });
})();
