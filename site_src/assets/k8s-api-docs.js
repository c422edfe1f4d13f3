/* k8s-api-docs: field paths as `kubectl explain` names them (spec.template.spec.containers.image).
   Each model page with properties has a form (hidden without JavaScript) whose data-paths
   attribute is the URL of the release's fieldpaths.json, written by the generator (a page's key
   is its URL below that file's directory):
   {"models": {"<key>": {"k": "Kind", "f": {"<field>": ["<anchor>", "<key of its type>" | null]}}}},
   a key being a page URL below the release root, or for a CRD's nested object the page that
   shows its section and the section's anchor ("<page URL>#object-spec.rules").
   A path is resolved field by field, following the types across pages and sections; the form
   then opens the page that shows the last field at that field's row. Nothing is requested from
   another host.
   Sites built with use_directory_urls: false (served by a file system or an object store, where
   nothing turns a directory into its index.html) are recognised by their pages' URLs, which
   name a file (fileUrls): every URL made here then names a file too. */
(function () {
  "use strict";
  var cache = {};

  /* This page was reached by a URL naming its file (a site built with use_directory_urls:
     false): every URL made here names a file too (a release's home is .../index.html). Such URLs
     also work on a site with directory URLs, whose directories hold an index.html each. */
  function fileUrls() {
    return /\.html$/.test(location.pathname);
  }

  /* Open `same` (this page in another release) when it exists there (a HEAD request), else
     `home` (that release's home page). */
  function openRelease(event, same, home) {
    if (event.metaKey || event.ctrlKey) return;
    event.preventDefault();
    event.stopPropagation();
    fetch(same, { method: "HEAD", credentials: "same-origin" })
      .then(function (resp) { location.href = resp.ok ? same : home; })
      .catch(function () { location.href = home; });
  }

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
    /* This page's key: its URL below the directory of fieldpaths.json (the release root), as the
       site publishes it (x/ with directory URLs, also when reached as x/index.html; x.html). */
    var root = new URL(".", url).pathname;
    var here = decodeURIComponent(location.pathname.slice(root.length));
    function startOf(data) {
      if (form.dataset.start) return form.dataset.start;  /* a sub-page of a CRD tree: from its kind */
      return Object.prototype.hasOwnProperty.call(data.models, here) ? here : here.replace(/index\.html$/, "");
    }
    input.addEventListener("input", function () {
      load(url).then(function (data) {
        var options = suggestions(data, startOf(data), input.value).slice(0, 200);
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
        var r = resolve(data, startOf(data), input.value);
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

  /* Long model names and field paths in the navigation and the table of contents wrap between
     words (camelCase humps, after ".", "/", "_" and "]"), like the identifiers the generator
     writes with <wbr> (render.env.wbr), instead of mid-word or cut off; the whole label is the
     link's title (shown on hover). */
  var HUMP = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})|(?<=[./_\]])(?=[^./_\]\s])/;
  function breakNames() {
    /* A sub-page's table of contents labels a section with the path after the section above it
       ("solvers[]" under "spec.acme": views.crd.toc_headings); its title is the whole path. */
    document.querySelectorAll('.md-nav__link[href^="#"]').forEach(function (link) {
      var target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
      if (link.title || !target || !/^H[2-6]$/.test(target.tagName)) return;
      var whole = "";
      target.childNodes.forEach(function (n) {
        if (!(n.nodeType === 1 && n.classList.contains("headerlink"))) whole += n.textContent;
      });
      whole = whole.trim();
      if (whole && whole !== link.textContent.trim()) link.title = whole;
    });
    document.querySelectorAll(".md-nav__link .md-ellipsis").forEach(function (el) {
      if (el.childElementCount || el.textContent.trim().length < 16) return;
      var parts = el.textContent.trim().split(HUMP);
      if (parts.length < 2) return;
      var link = el.closest(".md-nav__link");
      if (link && !link.title) link.title = el.textContent.trim();
      el.textContent = "";
      parts.forEach(function (part, i) {
        if (i) el.appendChild(document.createElement("wbr"));
        el.appendChild(document.createTextNode(part));
      });
    });
    /* Headings: the words of long names (a change page's ValidatingAdmissionPolicyBindingSpec)
       get the same break opportunities; text the generator already broke (<wbr>) is left. */
    document.querySelectorAll("article h1, article h2, article h3, article h4, article h5, article h6").forEach(function (h) {
      if (h.dataset.k8sBroken || h.querySelector("wbr")) return;
      h.dataset.k8sBroken = "1";
      var walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT), nodes = [];
      for (var n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
      nodes.forEach(function (node) {
        if (node.textContent.length < 16 || node.parentElement.closest(".headerlink")) return;
        var parts = [];  /* only words of 16 characters or more: "1.32" stays whole */
        node.textContent.split(/(\s+)/).forEach(function (word) {
          var pieces = word.length < 16 ? [word] : word.split(HUMP);
          if (parts.length) parts[parts.length - 1] += pieces.shift();
          parts.push.apply(parts, pieces);
        });
        if (parts.length < 2) return;
        var frag = document.createDocumentFragment();
        parts.forEach(function (part, i) {
          if (i) frag.appendChild(document.createElement("wbr"));
          frag.appendChild(document.createTextNode(part));
        });
        node.parentNode.replaceChild(frag, node);
      });
    });
  }

  /* The combined site (every release below one MkDocs site, the README's default build): the
     plugin writes releases.json at the site root ([{version, title, dir, name}], newest first).
     Material's version selector needs one site per release (build-site), so this script gives
     the combined site the same selector (Material's markup and styles): a release keeps the page
     when it exists there (a HEAD request to it), else opens that release's home; and it puts
     the current page's release first in the search results, each result marked with its release. */
  var releases = null;

  function siteRoot() {
    var el = document.getElementById("__config");
    if (!el) return null;
    var config = JSON.parse(el.textContent);
    if (config.version) return null;  /* Material's own selector (build-site's release sites) */
    var base = new URL(config.base, location.href).href;
    return base.endsWith("/") ? base : base + "/";
  }

  function releaseOf(root, url) {
    var path = new URL(url, location.href).pathname, rootPath = new URL(root).pathname;
    if (!path.startsWith(rootPath)) return null;
    var head = decodeURIComponent(path.slice(rootPath.length).split("/")[0]);
    return releases.filter(function (r) { return r.dir === head; })[0] || null;
  }

  function switcher(root) {
    var topic = document.querySelector(".md-header__topic");
    if (!topic || topic.querySelector(".md-version")) return;
    var current = releaseOf(root, location.href);
    var rest = current ? location.pathname.slice(new URL(root).pathname.length + current.dir.length + 1) : "";
    var box = document.createElement("div");
    box.className = "md-version k8s-releases";
    var button = document.createElement("button");
    button.className = "md-version__current";
    button.textContent = current ? current.title : "Release";
    button.dataset.k8sLabel = "1";
    button.setAttribute("aria-label", "Select release, current: " + (current ? current.title : "none"));
    var list = document.createElement("ul");
    list.className = "md-version__list";
    var index = fileUrls() ? "index.html" : "";
    releases.forEach(function (r) {
      var home = new URL(r.dir + "/" + index, root).href;
      var same = new URL(r.dir + "/" + rest + location.search + location.hash, root).href;
      var item = document.createElement("li");
      item.className = "md-version__item";
      var link = document.createElement("a");
      link.className = "md-version__link";
      link.href = current ? same : home;
      link.textContent = r.title;
      link.title = r.name;
      link.addEventListener("click", function (event) {
        if (current) openRelease(event, same, home);
      });
      item.appendChild(link);
      list.appendChild(item);
    });
    box.appendChild(button);
    box.appendChild(list);
    topic.appendChild(box);
  }

  /* Search results: each marked with its release (data-k8s-release, a badge where the title does
     not name it); the current page's release first, the others after in their order. */
  function rankResults(root, list) {
    var current = releaseOf(root, location.href);
    var items = Array.prototype.slice.call(list.children);
    items.forEach(function (li) {
      if (li.hasAttribute("data-k8s-release")) return;
      var link = li.querySelector("a.md-search-result__link");
      var r = link ? releaseOf(root, link.href) : null;
      li.setAttribute("data-k8s-release", r ? r.version : "");
      var title = li.querySelector(".md-search-result__article h1, .md-search-result__article h2");
      if (r && title && title.textContent.indexOf(r.version) < 0) {
        var badge = document.createElement("span");
        badge.className = "k8s-badge k8s-release";
        badge.textContent = r.title;
        title.appendChild(document.createTextNode(" "));
        title.appendChild(badge);
      }
    });
    if (!current) return false;
    var mine = items.filter(function (li) { return li.getAttribute("data-k8s-release") === current.version; });
    var ordered = mine.concat(items.filter(function (li) { return mine.indexOf(li) < 0; }));
    if (ordered.every(function (li, i) { return li === items[i]; })) return false;
    ordered.forEach(function (li) { list.appendChild(li); });
    return true;
  }

  function watchResults(root) {
    var list = document.querySelector(".md-search-result__list");
    if (!list || list.dataset.k8sRanked) return;
    list.dataset.k8sRanked = "1";
    var watch = new MutationObserver(function () {
      watch.disconnect();
      rankResults(root, list);
      watch.observe(list, { childList: true });
    });
    watch.observe(list, { childList: true });
  }

  function combinedSite() {
    var root = siteRoot();
    if (!root) return;
    var ready = releases ? Promise.resolve(releases) : fetch(new URL("releases.json", root).href,
      { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : []; });
    ready.then(function (data) {
      releases = data;
      if (!Array.isArray(data) || data.length < 2) return;
      switcher(root);
      watchResults(root);
    }).catch(function () { /* not a combined site */ });
  }

  /* Material's own selector (build-site: one site per release, versions.json) links each release
     by its directory (../1.31/) and keeps the page through the release's sitemap, falling back
     to that directory. On a site with file URLs no server need map a directory to its
     index.html: each link then names the release's home file, and a click opens this page in
     that release when it exists there (HEAD), else the home, as the combined site's selector. */
  function fileVersionLinks() {
    if (!fileUrls()) return;
    var el = document.getElementById("__config");
    if (!el) return;
    var base = new URL(JSON.parse(el.textContent).base, location.href).href;
    base = base.endsWith("/") ? base : base + "/";
    var rest = location.pathname.startsWith(new URL(base).pathname)
      ? location.pathname.slice(new URL(base).pathname.length) : "";
    document.querySelectorAll("a.md-version__link:not([data-k8s-file])").forEach(function (link) {
      var dir = link.href;
      if (!dir.endsWith("/")) return;
      link.dataset.k8sFile = "1";
      var home = dir + "index.html";
      var same = dir + rest + location.search + location.hash;
      link.href = home;  /* not a URL Material's selector intercepts any more */
      link.addEventListener("click", function (event) { openRelease(event, same, home); });
    });
  }

  /* A label whose word cannot break anywhere (a CRD's "beyondtrustworkloadcredentials", deep in
     a sub-page's table of contents) and does not fit what the reader sees of its sidebar or
     drawer is set a little smaller (down to 76%) rather than cut or broken inside the word. The
     drawer's levels are laid out only when opened: checked again on any toggle and resize. */
  function fitLabels() {
    var vw = document.documentElement.clientWidth;
    document.querySelectorAll(".md-sidebar .md-nav__link .md-ellipsis").forEach(function (el) {
      if (!el.dataset.k8sFit && !/\S{20}/.test(el.textContent.replace(/\u00ad/g, ""))) return;
      var box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= 0 || box.left >= vw) return;
      var right = vw;
      for (var p = el; p && p !== document.documentElement; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== "visible")
          right = Math.min(right, p.getBoundingClientRect().left + p.clientLeft + p.clientWidth);
      }
      var range = document.createRange();
      range.selectNodeContents(el);
      var size = 100;
      el.style.fontSize = "";
      while (range.getBoundingClientRect().right > right - 1 && size > 76) {
        size -= 4;
        el.style.fontSize = size + "%";
      }
      el.dataset.k8sFit = String(size);
    });
  }
  var fitting = [];
  function fitSoon() {  /* now, and once a drawer has slid in (Material's transition: 250 ms) */
    fitting.forEach(clearTimeout);
    fitting = [setTimeout(fitLabels, 30), setTimeout(fitLabels, 300)];
  }
  document.addEventListener("change", fitSoon);
  window.addEventListener("resize", fitSoon);

  function init() {
    combinedSite();
    document.querySelectorAll("form.k8s-fieldpath").forEach(setup);
    breakNames();
    fitLabels();
    label();
    fileVersionLinks();
    var topic = document.querySelector(".md-header__topic");
    if (topic && !document.querySelector(".md-version")) {  /* added once versions.json loads */
      var watch = new MutationObserver(function () {
        if (document.querySelector(".md-version__current")) {
          watch.disconnect();
          label();
          fileVersionLinks();
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
