(function () {
  "use strict";
  var strings = {};
  try { strings = JSON.parse(document.querySelector("main").getAttribute("data-strings")); } catch (error) { strings = {}; }
  function say(element, key) { if (element) { element.textContent = strings[key] || ""; } }

  var form = document.getElementById("poem-form");
  if (form) {
    var input = form.querySelector("input[type=file]");
    var preview = document.getElementById("preview");
    var button = form.querySelector("button[type=submit]");
    var status = document.getElementById("status");
    var alert = document.getElementById("form-alert");
    var find = form.querySelector("input[name=find]");
    var replaceWith = form.querySelector("input[name=replaceWith]");
    var kept = document.getElementById("kept");
    var keptImage = document.getElementById("kept-image");
    var keptName = document.getElementById("kept-image-name");
    var shown = null;
    function show(file) {
      if (shown) { URL.revokeObjectURL(shown); shown = null; }
      if (file && file.type.indexOf("image/") === 0) {
        shown = URL.createObjectURL(file);
        preview.src = shown;
        preview.hidden = false;
      } else {
        preview.hidden = true;
      }
    }
    var keptFile = null;
    if (keptImage) {
      // The photo the server handed back: into the file input, so that it is sent as
      // the file it is; the hidden copy then stays behind.
      try {
        var binary = atob(keptImage.value);
        var bytes = new Uint8Array(binary.length);
        for (var i = 0; i < binary.length; i += 1) { bytes[i] = binary.charCodeAt(i); }
        var file = new File([bytes], keptName.value || "photo", { type: keptImage.getAttribute("data-type") || "" });
        var transfer = new DataTransfer();
        transfer.items.add(file);
        input.files = transfer.files;
        if (input.files.length === 1) {
          keptFile = input.files[0];
          keptImage.disabled = true;
          keptName.disabled = true;
        }
        var keptPreview = document.getElementById("kept-preview");
        keptPreview.src = URL.createObjectURL(file);
        keptPreview.hidden = false;
      } catch (error) {
        keptImage.disabled = false;
        keptName.disabled = false;
      }
    }
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file && keptFile) {
        // The picker was closed without a choice: the kept photo stays chosen.
        var again = new DataTransfer();
        again.items.add(keptFile);
        input.files = again.files;
        return;
      }
      if (kept && file) {
        // Another photo was chosen: the kept one goes.
        kept.parentNode.removeChild(kept);
        kept = null;
        keptFile = null;
      }
      show(file);
    });
    function refuse(message, field) {
      alert.textContent = message;
      alert.hidden = false;
      if (field) {
        field.setAttribute("aria-invalid", "true");
        field.focus();
      }
    }
    [find, replaceWith].forEach(function (field) {
      field.addEventListener("input", function () { field.removeAttribute("aria-invalid"); });
    });
    form.addEventListener("submit", function (event) {
      var hasFind = find.value.trim() !== "", hasReplacement = replaceWith.value.trim() !== "";
      var file = input.files && input.files[0];
      if (hasFind && !hasReplacement) {
        event.preventDefault();
        refuse(strings.replaceWithMissing, replaceWith);
        return;
      }
      if (!hasFind && hasReplacement) {
        event.preventDefault();
        refuse(strings.findMissing, find);
        return;
      }
      if (file && file.type && file.type.indexOf("image/") !== 0) {
        event.preventDefault();
        refuse(strings.fileNotImage, input);
        return;
      }
      if (file && file.size > Number(form.getAttribute("data-max-upload"))) {
        event.preventDefault();
        refuse(form.getAttribute("data-max-upload-text"), input);
        return;
      }
      alert.hidden = true;
      button.disabled = true;
      say(status, "reading");
    });
    window.addEventListener("pageshow", function () {
      button.disabled = false;
      status.textContent = "";
    });
  }

  var editor = document.getElementById("poem-editor");
  if (!editor) { return; }
  var editForm = document.getElementById("edit-form");
  var update = document.getElementById("update");
  var editStatus = document.getElementById("edit-status");
  var note = document.getElementById("action-status");
  var mailto = document.getElementById("mailto");
  var pending = null, timer = null, stale = false, sentText = editor.value;

  // Rendered again by the server: the same post as without JavaScript, in the
  // background; the note, the words to check, the downloads and the e-mail link come
  // from its answer.
  function render() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (pending) { return pending; }
    var body = new URLSearchParams(new FormData(editForm));
    var text = editor.value;
    pending = fetch(editForm.action + "?fragment=true", {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "text/html" }
    }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var answer = new DOMParser().parseFromString(html, "text/html");
      var oldNote = document.getElementById("note"), newNote = answer.getElementById("note");
      if (oldNote && newNote) {
        oldNote.parentNode.replaceChild(document.importNode(newNote, true), oldNote);
      }
      var oldDoubts = document.getElementById("doubts"), newDoubts = answer.getElementById("doubts");
      if (oldDoubts && newDoubts) {
        var fresh = document.importNode(newDoubts, true);
        oldDoubts.parentNode.replaceChild(fresh, oldDoubts);
        watchDoubts();
        markFixed();
      }
      var links = answer.querySelectorAll("a[download]");
      for (var i = 0; i < links.length; i += 1) {
        var mine = document.querySelector("a[download=\"" + links[i].getAttribute("download") + "\"]");
        if (mine) { mine.href = links[i].getAttribute("href"); }
      }
      var newMailto = answer.getElementById("mailto");
      if (newMailto) { mailto.href = newMailto.getAttribute("href"); }
      document.title = answer.title;
      sentText = text;
      stale = editor.value !== sentText;
      editStatus.textContent = "";
      pending = null;
      if (stale) { schedule(); }
    }).catch(function (error) {
      pending = null;
      update.hidden = false;
      say(editStatus, "updateFailed");
      throw error;
    });
    return pending;
  }
  function schedule() {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(function () { render().catch(function () {}); }, 500);
  }
  update.hidden = true;
  editForm.addEventListener("submit", function (event) {
    event.preventDefault();
    say(editStatus, "updating");
    render().catch(function () {});
  });
  editor.addEventListener("input", function () {
    stale = true;
    markFixed();
    schedule();
  });
  // A way out taken while the note is being rendered again waits for it.
  function whenCurrent(action) {
    if (!stale && !pending) { action(); return; }
    say(editStatus, "updating");
    render().then(action, function () {});
  }
  Array.prototype.forEach.call(document.querySelectorAll("a[download]"), function (link) {
    link.addEventListener("click", function (event) {
      if (link.getAttribute("data-current") === "yes") { link.removeAttribute("data-current"); return; }
      if (!stale && !pending) { return; }
      event.preventDefault();
      whenCurrent(function () { link.setAttribute("data-current", "yes"); link.click(); });
    });
  });
  mailto.addEventListener("click", function (event) {
    if (!stale && !pending) { return; }
    event.preventDefault();
    whenCurrent(function () { window.location.href = mailto.href; });
  });

  // The words to check: a tap selects the word in the editor, ready to be retyped.
  function lineStart(text, line) {
    var start = 0;
    for (var n = 1; n < line; n += 1) {
      var next = text.indexOf("\n", start);
      if (next < 0) { return -1; }
      start = next + 1;
    }
    return start;
  }
  function locate(link) {
    var text = editor.value, word = link.getAttribute("data-word");
    var line = Number(link.getAttribute("data-line")), column = Number(link.getAttribute("data-column"));
    var start = lineStart(text, line);
    if (start >= 0) {
      var end = text.indexOf("\n", start);
      if (end < 0) { end = text.length; }
      var lineText = text.slice(start, end), best = -1, at = lineText.indexOf(word);
      while (at >= 0) {
        if (best < 0 || Math.abs(at - (column - 1)) < Math.abs(best - (column - 1))) { best = at; }
        at = lineText.indexOf(word, at + 1);
      }
      if (best >= 0) { return start + best; }
    }
    return -1;
  }
  function markFixed() {
    Array.prototype.forEach.call(document.querySelectorAll("a.doubt-link"), function (link) {
      link.classList.toggle("fixed", locate(link) < 0);
    });
  }
  function watchDoubts() {
    Array.prototype.forEach.call(document.querySelectorAll("a.doubt-link"), function (link) {
      link.addEventListener("click", function (event) {
        event.preventDefault();
        var start = locate(link);
        editor.focus();
        if (start >= 0) { editor.setSelectionRange(start, start + link.getAttribute("data-word").length); }
        editor.scrollIntoView({ block: "center" });
      });
    });
  }
  watchDoubts();

  var copy = document.getElementById("copy");
  copy.hidden = false;
  copy.addEventListener("click", function () {
    var text = editor.value;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        say(note, "copied");
      }, function () {
        say(note, "copyRefused");
      });
      return;
    }
    // Plain http (a phone on the local network): the older way, through a selection.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "offscreen";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(area);
    say(note, copied ? "copied" : "copyRefused");
  });

  // Share: the phone's own sheet, with the poem as text and the love note as a file
  // where the browser takes files.
  var share = document.getElementById("share");
  if (navigator.share) {
    share.hidden = false;
    share.addEventListener("click", function () {
      whenCurrent(function () {
        var data = { title: document.title, text: editor.value };
        var link = document.querySelector("a[download=\"poem.html\"]");
        if (link && window.File && navigator.canShare) {
          try {
            var encoded = link.getAttribute("href").split(",")[1] || "";
            var binary = atob(encoded), bytes = new Uint8Array(binary.length);
            for (var i = 0; i < binary.length; i += 1) { bytes[i] = binary.charCodeAt(i); }
            var files = [new File([bytes], "poem.html", { type: "text/html" })];
            if (navigator.canShare({ files: files })) { data.files = files; }
          } catch (error) { /* text only */ }
        }
        navigator.share(data).then(function () {
          say(note, "shared");
        }, function (error) {
          if (!error || error.name !== "AbortError") { say(note, "shareFailed"); }
        });
      });
    });
  }
})();
