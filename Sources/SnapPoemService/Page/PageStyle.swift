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
        .hint { margin: 0; font-size: 0.85rem; color: #8a6d6d; }
        .status { margin: 0; min-height: 1.4em; color: #6b4c4c; font-style: italic; }
        .alert { margin: 0 0 1rem; padding: 0.75rem 0.9rem; border-radius: 4px; background: #fde8e8; border: 1px solid #e4a1a1; color: #7a1f1f; }
        .notice { margin: 0 0 1rem; padding: 0.75rem 0.9rem; border-radius: 4px; background: #fff4d9; border: 1px solid #e8cf8a; color: #5e4710; }
        .note { padding: 2rem 1.4rem 1.6rem; }
        .note h2 { margin: 0; text-align: center; font-weight: normal; font-style: italic; font-size: 1.9rem; line-height: 1.2; color: var(--rose); }
        .ornament { margin: 0.4rem 0 1.6rem; text-align: center; color: var(--blush); font-size: 1.4rem; }
        .stanza { margin: 0 0 1.4em; }
        .line { display: block; padding-left: 1.6em; text-indent: -1.6em; }
        .empty { text-align: center; font-style: italic; color: #9c7b7b; }
        label.check { display: flex; gap: 0.5rem; align-items: center; font-size: 0.95rem; color: #6b4c4c; }
        label.check input { width: 1.1rem; height: 1.1rem; accent-color: var(--rose); }
        .note.numbered { padding-left: 3.6rem; }
        .reading-card { margin: 1.2rem 0 0; }
        .reading-card h2 { margin: 0 0 0.8rem; font-weight: normal; font-style: italic; font-size: 1.3rem; color: var(--rose); }
        .closing { margin: 1.5rem 0 0; text-align: center; color: var(--blush); }
        .actions { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.6rem; margin: 1.2rem 0 0; }
        [hidden] { display: none !important; }
        .offscreen { position: fixed; top: 0; left: -9999px; }
        footer { margin: 1.5rem 0 0; text-align: center; font-size: 0.8rem; color: #9c7b7b; }
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
          header, form, .actions, footer, .notice { display: none; }
          .card { box-shadow: none; border: none; }
        }
        """

    /// Progressive enhancement: a preview of the chosen photo and a "reading" state while the
    /// form posts; on the note, copy and share buttons where the browser has them. The page
    /// works without it. Never writes markup: only text content and attributes.
    static let script = """
        (function () {
          "use strict";
          var form = document.getElementById("poem-form");
          if (form) {
            var input = form.querySelector("input[type=file]");
            var preview = document.getElementById("preview");
            var button = form.querySelector("button[type=submit]");
            var status = document.getElementById("status");
            var shown = null;
            input.addEventListener("change", function () {
              if (shown) { URL.revokeObjectURL(shown); shown = null; }
              var file = input.files && input.files[0];
              if (file && file.type.indexOf("image/") === 0) {
                shown = URL.createObjectURL(file);
                preview.src = shown;
                preview.hidden = false;
              } else {
                preview.hidden = true;
              }
            });
            form.addEventListener("submit", function () {
              button.disabled = true;
              status.textContent = "Reading the poem\\u2026 this takes a few seconds.";
            });
            window.addEventListener("pageshow", function () {
              button.disabled = false;
              status.textContent = "";
            });
          }
          var poem = document.getElementById("poem-text");
          if (!poem) { return; }
          var text = poem.textContent;
          var title = document.title;
          var note = document.getElementById("action-status");
          var copy = document.getElementById("copy");
          copy.hidden = false;
          copy.addEventListener("click", function () {
            if (navigator.clipboard && window.isSecureContext) {
              navigator.clipboard.writeText(text).then(function () {
                note.textContent = "Copied.";
              }, function () {
                note.textContent = "The browser did not allow copying; select the poem instead.";
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
            note.textContent = copied ? "Copied." : "The browser did not allow copying; select the poem instead.";
          });
          var share = document.getElementById("share");
          if (navigator.share) {
            share.hidden = false;
            share.addEventListener("click", function () {
              navigator.share({ title: title, text: text }).catch(function () {});
            });
          }
        })();
        """
}
