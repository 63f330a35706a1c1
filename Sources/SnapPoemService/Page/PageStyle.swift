/// The style sheet and the script of the service's page, inline in every page (no fonts,
/// scripts or images are fetched) and allowed by the page's per-response nonce.
enum PageAssets {
    /// The page's styling: a love note on warm paper, readable at 320 px and on a desktop.
    static let styleSheet = """
        :root { color-scheme: light; --ink: #3d2b2b; --rose: #9e3349; --blush: #c4637a; --paper: #fffaf4; --line: #ecd3cb; }
        * { box-sizing: border-box; }
        html { background: #f3e3dc; }
        body {
          margin: 0; padding: 1.5rem 0.75rem 3rem; min-height: 100vh;
          background: radial-gradient(circle at 50% 0, #fbefe9 0, #f3e3dc 60%);
          color: var(--ink);
          font-family: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif;
          font-size: 1.05rem; line-height: 1.6;
        }
        main { max-width: 40rem; margin: 0 auto; }
        header { text-align: center; margin: 0 0 1.25rem; }
        h1 { margin: 0; font-weight: normal; font-style: italic; font-size: 2rem; line-height: 1.2; color: var(--rose); }
        .lede { margin: 0.4rem 0 0; color: #7a5a5a; }
        .card {
          background: var(--paper); border: 1px solid var(--line); border-radius: 6px;
          box-shadow: 0 1px 2px rgba(90, 40, 40, 0.10), 0 14px 40px rgba(90, 40, 40, 0.12);
          padding: 1.25rem 1.1rem;
        }
        form { display: grid; gap: 1rem; }
        .photo {
          display: grid; gap: 0.5rem; justify-items: center; text-align: center;
          padding: 1.25rem 0.75rem; border: 2px dashed #d9aeb4; border-radius: 6px; background: #fff6f2; cursor: pointer;
        }
        .photo .icon { color: var(--blush); }
        .photo input { max-width: 100%; font: inherit; font-size: 0.9rem; }
        #preview { display: block; max-width: 100%; max-height: 14rem; margin: 0 auto; border-radius: 4px; }
        .names { display: grid; gap: 1rem; grid-template-columns: 1fr 1fr; }
        label.field { display: grid; gap: 0.3rem; font-size: 0.95rem; color: #6b4c4c; }
        input[type=text] {
          font: inherit; font-size: 1.05rem; padding: 0.6rem 0.7rem; width: 100%;
          border: 1px solid #d8bfc0; border-radius: 4px; background: #fff; color: var(--ink);
        }
        input[type=text]:focus, button:focus-visible, a.button:focus-visible { outline: 3px solid #e7a5b3; outline-offset: 1px; }
        button, a.button {
          font: inherit; font-size: 1.05rem; padding: 0.7rem 1rem; border-radius: 4px; border: 1px solid var(--rose);
          background: var(--rose); color: #fff; cursor: pointer; text-decoration: none; text-align: center;
          display: flex; align-items: center; justify-content: center; line-height: 1.3;
        }
        button[disabled] { opacity: 0.6; cursor: progress; }
        button.secondary, a.button.secondary { background: #fff; color: var(--rose); }
        .hint { margin: 0; font-size: 0.85rem; color: #76595a; }
        .status { margin: 0; min-height: 1.4em; color: #6b4c4c; font-style: italic; }
        .alert { margin: 0 0 1rem; padding: 0.75rem 0.9rem; border-radius: 4px; background: #fde8e8; border: 1px solid #e4a1a1; color: #7a1f1f; }
        .notice { margin: 0 0 1rem; padding: 0.75rem 0.9rem; border-radius: 4px; background: #fff4d9; border: 1px solid #e8cf8a; color: #5e4710; }
        .note { padding: 2rem 1.4rem 1.6rem; }
        .note h2 { margin: 0; text-align: center; font-weight: normal; font-style: italic; font-size: 1.9rem; line-height: 1.2; color: var(--rose); }
        .ornament { margin: 0.4rem 0 1.6rem; text-align: center; color: var(--blush); font-size: 1.4rem; }
        .stanza { margin: 0 0 1.4em; }
        .line { display: block; padding-left: 1.6em; text-indent: -1.6em; }
        .empty { text-align: center; font-style: italic; color: #76595a; }
        label.check { display: flex; gap: 0.5rem; align-items: center; font-size: 0.95rem; color: #6b4c4c; }
        label.check input { width: 1.1rem; height: 1.1rem; accent-color: var(--rose); }
        .note.numbered { padding-left: 3.6rem; }
        .reading-card { margin: 1.2rem 0 0; }
        .reading-card h2 { margin: 0 0 0.8rem; font-weight: normal; font-style: italic; font-size: 1.3rem; color: var(--rose); }
        .closing { margin: 1.5rem 0 0; text-align: center; color: var(--blush); }
        .actions { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.6rem; margin: 1.2rem 0 0; }
        .kept { display: grid; gap: 0.6rem; justify-items: center; text-align: center; margin: 0; padding: 0.8rem; border-radius: 6px; background: #eef6ee; border: 1px solid #9cc69f; color: #24492a; font-size: 0.95rem; }
        .kept p { margin: 0; }
        #kept-preview { display: block; max-width: 100%; max-height: 10rem; border-radius: 4px; }
        mark.doubt { background: #ffe6bd; color: inherit; border-bottom: 2px dotted #a35200; border-radius: 2px; padding: 0 0.08em; }
        .editor { margin: 1.2rem 0 0; display: grid; gap: 0.8rem; }
        .editor h2 { margin: 0; font-weight: normal; font-style: italic; font-size: 1.3rem; color: var(--rose); }
        .editor form { gap: 0.6rem; }
        .editor textarea {
          font: inherit; font-size: 1rem; line-height: 1.5; width: 100%; padding: 0.6rem 0.7rem; resize: vertical;
          border: 1px solid #d8bfc0; border-radius: 4px; background: #fff; color: var(--ink);
        }
        .editor textarea:focus { outline: 3px solid #e7a5b3; outline-offset: 1px; }
        .doubts { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
        a.doubt-link {
          display: inline-flex; align-items: baseline; gap: 0.4rem; padding: 0.45rem 0.7rem; min-height: 2.75rem; box-sizing: border-box;
          border: 1px solid #d9a25c; border-radius: 999px; background: #fff3de; color: #5a3300; text-decoration: none;
        }
        a.doubt-link:focus-visible { outline: 3px solid #e7a5b3; outline-offset: 1px; }
        a.doubt-link.fixed { background: #eef6ee; border-color: #9cc69f; color: #24492a; }
        a.doubt-link.fixed::before { content: "\\2713"; }
        .doubt-line { font-size: 0.8rem; }
        [hidden] { display: none !important; }
        .offscreen { position: fixed; top: 0; left: -9999px; }
        footer { margin: 1.5rem 0 0; text-align: center; font-size: 0.8rem; color: #6e5252; }
        @media (max-width: 30rem) {
          body { padding: 1rem 0.5rem 2rem; }
          h1 { font-size: 1.7rem; }
          .names { grid-template-columns: 1fr; }
          .note { padding: 1.5rem 1rem 1.2rem; }
          .note h2 { font-size: 1.6rem; }
          .note.numbered { padding-left: 2.2rem; }
        }
        @media (min-width: 60rem) {
          body { padding-top: 3rem; font-size: 1.1rem; }
          main { max-width: 48rem; }
          h1 { font-size: 2.4rem; }
          .card { padding: 1.75rem 2rem; }
          .note { padding: 3rem 3.2rem 2.4rem; }
          .note.numbered { padding-left: 4.2rem; }
        }
        @media print {
          html, body { background: none; }
          header, form, .actions, footer, .notice, .editor { display: none; }
          .card { box-shadow: none; border: none; }
        }
        """

    /// Progressive enhancement; the page works without it. On the form: a preview of the
    /// chosen photo, the kept photo put back into the file input, the names and the file
    /// checked before anything is sent, and a "reading" state while the form posts. On the
    /// note: what is typed in the editor is what Share (`navigator.share`, with the love note
    /// as a file where `navigator.canShare` allows), Copy, E-mail and the downloads send; the
    /// note and the downloads are rendered again by the server (`POST /note`, the same post
    /// as without JavaScript) a moment after typing stops, and a download or the e-mail link
    /// taken before that waits for it. Never writes markup: only text content, attributes,
    /// and nodes moved in from the server's own answer.
    static let script = """
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
                var mine = document.querySelector("a[download=\\"" + links[i].getAttribute("download") + "\\"]");
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
              var next = text.indexOf("\\n", start);
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
              var end = text.indexOf("\\n", start);
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
                var link = document.querySelector("a[download=\\"poem.html\\"]");
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
        """
}
