/* k8s-api-docs: field paths as `kubectl explain` names them (spec.template.spec.containers.image).
   Each model page with properties has a form (hidden without JavaScript) whose data-paths
   attribute is the URL of the release's fieldpaths.json, written by the generator (a page's key
   is its URL below that file's directory):
   {"models": {"<key>": {"k": "Kind", "f": {"<field>": ["<anchor>", "<key of its type>" | null]}}}},
   a key being a page URL below the release root, or for a CRD's nested object the page that
   shows its section and the section's anchor ("<page URL>#object-spec.rules").
   A path is resolved field by field, following the types across pages and sections; the form
   then opens the page that shows the last field at that field's row. Nothing is requested from
   another host. */
(function () {
  "use strict";
  var cache = {};

  function load(url) {
    if (!cache[url]) {
      cache[url] = fetch(url, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      });
    }
    return cache[url];
  }

  function fieldOf(model, name) {
    if (Object.prototype.hasOwnProperty.call(model.f, name)) return name;
    var lower = name.toLowerCase();
    var found = Object.keys(model.f).filter(function (f) { return f.toLowerCase() === lower; });
    return found.length === 1 ? found[0] : null;
  }

  /* {key, page, anchor} of the last field of `path` (key: the entry holding it; page: the page
     showing it), or {error}. */
  function resolve(data, start, path) {
    var parts = path.replace(/\[[^\]]*\]/g, "").split(".").map(function (p) { return p.trim(); })
      .filter(function (p) { return p.length > 0; });
    var key = start, model = data.models[start];
    if (!model) return { error: "no field data for this page" };
    if (parts.length && !fieldOf(model, parts[0]) && parts[0].toLowerCase() === model.k.toLowerCase()) {
      parts.shift(); /* kubectl explain deployment.spec… */
    }
    if (!parts.length) return { error: "type a field path such as spec.replicas" };
    for (var i = 0; i < parts.length; i++) {
      var name = fieldOf(model, parts[i]);
      if (!name) return { error: model.k + " has no field " + parts[i] };
      var entry = model.f[name];
      if (i === parts.length - 1) return { key: key, page: key.split("#")[0], anchor: entry[0] };
      if (!entry[1] || !data.models[entry[1]]) {
        return { error: model.k + "." + name + " has no fields below it" };
      }
      key = entry[1];
      model = data.models[key];
    }
    return { error: "not found" };
  }

  function suggestions(data, start, text) {
    var cut = text.lastIndexOf(".");
    var head = cut < 0 ? "" : text.slice(0, cut);
    var model = data.models[start];
    if (head) {
      var r = resolve(data, start, head);
      if (r.error) return [];
      var owner = data.models[r.key], last = head.replace(/\[[^\]]*\]/g, "").split(".").pop();
      var entry = owner.f[fieldOf(owner, last)];
      if (!entry || !entry[1] || !data.models[entry[1]]) return [];
      model = data.models[entry[1]];
    }
    return Object.keys(model.f).map(function (f) { return (head ? head + "." : "") + f; });
  }

  function setup(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "1";
    form.hidden = false;
    var input = form.querySelector("input");
    var list = form.querySelector("datalist");
    var out = form.querySelector("output");
    var url = new URL(form.dataset.paths, document.baseURI).href;
    /* This page's key: its URL below the directory of fieldpaths.json (the release root). */
    var root = new URL(".", url).pathname;
    var start = decodeURIComponent(location.pathname.slice(root.length)).replace(/index\.html$/, "");
    input.addEventListener("input", function () {
      load(url).then(function (data) {
        var options = suggestions(data, start, input.value).slice(0, 200);
        list.replaceChildren.apply(list, options.map(function (o) {
          var el = document.createElement("option");
          el.value = o;
          return el;
        }));
      }).catch(function () { /* shown on submit */ });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      load(url).then(function (data) {
        var r = resolve(data, start, input.value);
        if (r.error) {
          out.textContent = r.error;
          return;
        }
        out.textContent = "";
        var target = new URL(r.page + "#" + r.anchor, url);
        if (target.pathname === location.pathname) {
          location.hash = r.anchor;
        } else {
          location.href = target.href;
        }
      }).catch(function (err) { out.textContent = "field data could not be loaded (" + err.message + ")"; });
    });
  }

  /* Accessible names Material's widgets lack (axe-core: aria-dialog-name,
     label-content-name-mismatch, scrollable-region-focusable). */
  function label() {
    var dialog = document.querySelector(".md-search[role=dialog]:not([aria-label])");
    if (dialog) dialog.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset__scrollwrap:not([tabindex])").forEach(function (el) {
      el.setAttribute("tabindex", "0");
    });
    var current = document.querySelector(".md-version__current");
    if (current && !current.dataset.k8sLabel) {
      current.dataset.k8sLabel = "1";
      current.setAttribute("aria-label", "Select version, current: " + current.textContent.trim());
    }
  }

  /* Long model names in the navigation wrap between words (camelCase humps), like the
     identifiers the generator writes with <wbr>, instead of mid-word or cut off. */
  var HUMP = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})/;
  function breakNames() {
    document.querySelectorAll(".md-nav__link .md-ellipsis").forEach(function (el) {
      if (el.childElementCount || el.textContent.trim().length < 16) return;
      var parts = el.textContent.trim().split(HUMP);
      if (parts.length < 2) return;
      el.textContent = "";
      parts.forEach(function (part, i) {
        if (i) el.appendChild(document.createElement("wbr"));
        el.appendChild(document.createTextNode(part));
      });
    });
  }

  function init() {
    document.querySelectorAll("form.k8s-fieldpath").forEach(setup);
    breakNames();
    label();
    var topic = document.querySelector(".md-header__topic");
    if (topic && !document.querySelector(".md-version")) {  /* added once versions.json loads */
      var watch = new MutationObserver(function () {
        if (document.querySelector(".md-version__current")) {
          watch.disconnect();
          label();
        }
      });
      watch.observe(topic, { childList: true, subtree: true });
    }
  }
  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
