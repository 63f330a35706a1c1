#!/usr/bin/env python3
"""The snap-poem page in a real browser: Debian's Chromium, driven by Selenium.

Run by BrowserTests.swift against a running `snap-poem serve`; prints one JSON object with
what it saw, and saves screenshots. Steps:

  phone (390x844, mobile emulation, the tilted photo) and desktop (1280x900, Lenore.png, with
    "Show the photo with what was read"): load /, run axe-core on the form, attach the photo,
    type the names, submit, read the note, run axe-core on it (the desktop's also at phone
    width); on the phone, tap the first word to check (it is selected in
    the editor), retype it, and see the edit reach a stubbed navigator.share (text and the
    love note as a file), the downloads, the e-mail link, and a download taken at once;
  the mistake, then the fix, with JavaScript: the page refuses half a pair of names before
    sending anything, and after a mistake only the server finds, the photo is back in the
    file input; the fix is sent without choosing the photo again;
  a name that is markup (it must show as text and never run);
  without JavaScript: the mistake, the fix without choosing the photo again, and an edit
    posted back into the downloads;
  French: the page with Accept-Language preferring French.

axe-core comes from axe-selenium-python (its axe.min.js, offline); navigator.share is stubbed
through the DevTools protocol (headless Chromium on Linux has no Web Share).
"""
import argparse
import base64
import glob
import json
import os
import sys
import tempfile
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import (
    StaleElementReferenceException,
    TimeoutException,
    UnexpectedAlertPresentException,
    WebDriverException,
)
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
HOSTILE = '<img src=x onerror="document.title=\'pwned\'">'
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)

# navigator.share and navigator.canShare as a phone has them, recording what they are given
# (the files read back as text).
SHARE_STUB = """
window.__shares = [];
Object.defineProperty(Navigator.prototype, "canShare", { configurable: true, value: function (data) { return true; } });
Object.defineProperty(Navigator.prototype, "share", { configurable: true, value: function (data) {
  var record = { title: data.title, text: data.text, files: [], done: false };
  window.__shares.push(record);
  var reads = (data.files || []).map(function (file) {
    return file.text().then(function (text) { record.files.push({ name: file.name, type: file.type, text: text }); });
  });
  return Promise.all(reads).then(function () { record.done = true; });
} });
"""


def axe_script():
    import axe_selenium_python

    path = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


AXE = None


def run_axe(driver):
    """axe-core's violations on the page as it is: id, impact, and the first targets."""
    global AXE
    if AXE is None:
        AXE = axe_script()
    driver.execute_script(AXE)
    results = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(r.violations); },"
        " function (e) { done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]); });"
    )
    return [
        {
            "id": violation["id"],
            "impact": violation.get("impact"),
            "help": violation.get("help"),
            "targets": [node.get("target") for node in violation.get("nodes", [])[:5]],
            "details": [node.get("failureSummary", "")[:300] for node in violation.get("nodes", [])[:2]],
        }
        for violation in results
    ]


def start_browser(profile, size, mobile, javascript=True, french=False, downloads=None, share=False):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in [
        "--headless=new",
        "--no-sandbox",  # the tests run as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--window-size={size['width']},{size['height']}",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(argument)
    if mobile:
        options.add_experimental_option(
            "mobileEmulation",
            {
                "deviceMetrics": {"width": size["width"], "height": size["height"], "pixelRatio": 2, "touch": True},
                "userAgent": IPHONE,
            },
        )
    prefs = {}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    if french:
        prefs["intl.accept_languages"] = "fr-FR,fr,en-US;q=0.5"
        options.add_argument("--lang=fr-FR")
    if prefs:
        options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(120)
    driver.set_script_timeout(60)
    if downloads:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    if share:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SHARE_STUB})
    return driver


def full_page_screenshot(driver, path, size, mobile):
    """The whole page at the given width, however long it is."""
    height = driver.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight);"
    )
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size["width"], "height": int(height), "deviceScaleFactor": 1, "mobile": mobile},
    )
    driver.save_screenshot(path)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def policy_violations(driver):
    """Console messages about the Content-Security-Policy blocking something."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry.get("message", "") or "Refused to" in entry.get("message", "")
    ]


def wait_for(driver, timeout, condition):
    return WebDriverWait(driver, timeout).until(lambda _: condition())


def fill(driver, url, image, find, replace_with, press_enter=False, submit=True):
    driver.get(url)
    form = WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "poem-form")))
    if image:
        form.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(os.path.abspath(image))
    if find:
        form.find_element(By.NAME, "find").send_keys(find)
    if not submit:
        if replace_with:
            form.find_element(By.NAME, "replaceWith").send_keys(replace_with)
        return form
    if press_enter:
        # Without JavaScript, chromedriver cannot click for us; Enter submits the form natively.
        form.find_element(By.NAME, "replaceWith").send_keys(replace_with + Keys.ENTER)
    else:
        form.find_element(By.NAME, "replaceWith").send_keys(replace_with)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return form


def across_navigation(driver, timeout, condition):
    """Waits for condition(driver) while a form post replaces the page: an element found on
    the old page and read after the new one came is not an error, only not there yet."""

    def attempt(current):
        try:
            return condition(current)
        except StaleElementReferenceException:
            return False
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return False
            raise

    return WebDriverWait(driver, timeout).until(attempt)


def note_of(driver, timeout):
    return across_navigation(driver, timeout, expected_conditions.presence_of_element_located((By.ID, "note")))


def visible(driver, element_id):
    elements = driver.find_elements(By.ID, element_id)
    return bool(elements) and elements[0].is_displayed()


def data_url_text(href):
    """The text of a data: URL (base64)."""
    if not href or "," not in href:
        return ""
    return base64.b64decode(href.split(",", 1)[1]).decode("utf-8", "replace")


def downloads_of(driver):
    found = {}
    for link in driver.find_elements(By.CSS_SELECTOR, "a[download]"):
        found[link.get_attribute("download")] = data_url_text(link.get_attribute("href"))
    return found


def eml_body(eml):
    """The plain-text part of a quoted-printable draft, decoded."""
    import email
    from email import policy

    message = email.message_from_string(eml, policy=policy.default)
    part = message.get_body(preferencelist=("plain",))
    return part.get_content() if part else ""


def note_checks(driver, result):
    note = driver.find_element(By.ID, "note")
    text = note.text
    result["noteText"] = text
    result["alexCount"] = text.count("Alex")
    result["lenoreCount"] = text.count("Lenore")
    result["copyVisible"] = visible(driver, "copy")
    result["shareVisible"] = visible(driver, "share")
    result["updateVisible"] = visible(driver, "update")
    result["downloads"] = [link.get_attribute("download") for link in driver.find_elements(By.CSS_SELECTOR, "a[download]")]
    result["mailto"] = (driver.find_element(By.ID, "mailto").get_attribute("href") or "").startswith("mailto:")
    result["editorHoldsPoem"] = driver.execute_script(
        "return document.getElementById('poem-editor').value;"
    ).count("Alex") == result["alexCount"]
    result["marked"] = [mark.text for mark in driver.find_elements(By.CSS_SELECTOR, "#note mark.doubt")]
    result["toCheck"] = [link.get_attribute("data-word") for link in driver.find_elements(By.CSS_SELECTOR, "a.doubt-link")]


def run_width(name, url, image, size, mobile, screenshots, timeout, downloads, show_reading=False):
    result = {"width": size["width"]}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, size, mobile, downloads=downloads, share=mobile)
        try:
            driver.get(url)
            WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "poem-form")))
            result["pageWidth"] = driver.execute_script("return document.documentElement.scrollWidth;")
            result["viewportWidth"] = driver.execute_script("return window.innerWidth;")
            result["axeForm"] = run_axe(driver)
            form_shot = os.path.join(screenshots, f"page-{name}-form.png")
            full_page_screenshot(driver, form_shot, size, mobile)
            form = fill(driver, url, image, "Lenore", "Alex", submit=False)
            if show_reading:
                form.find_element(By.NAME, "showReading").click()
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            note_of(driver, timeout)
            note_checks(driver, result)
            result["showsReading"] = bool(driver.find_elements(By.CSS_SELECTOR, ".reading-card img"))
            result["noteScrollWidth"] = driver.execute_script("return document.documentElement.scrollWidth;")
            result["axeNote"] = run_axe(driver)
            if show_reading:
                # The same result at phone width (the gutter's numbers are smaller there).
                driver.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": PHONE["width"], "height": PHONE["height"], "deviceScaleFactor": 2, "mobile": True},
                )
                result["axeNoteAtPhoneWidth"] = run_axe(driver)
                reading_shot = os.path.join(screenshots, "page-phone-reading.png")
                full_page_screenshot(driver, reading_shot, PHONE, True)
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            note_shot = os.path.join(screenshots, f"page-{name}-note.png")
            full_page_screenshot(driver, note_shot, size, mobile)
            result["policyViolations"] = policy_violations(driver)
            result["screenshots"] = [form_shot, note_shot]
            if mobile:
                result["edit"] = edit_and_share(driver, screenshots, size, downloads)
                result["policyViolations"] += policy_violations(driver)
        finally:
            driver.quit()
    return result


def edit_and_share(driver, screenshots, size, downloads):
    """Tap the first word to check, retype it, and follow the edit to every way out."""
    edit = {}
    links = driver.find_elements(By.CSS_SELECTOR, "a.doubt-link")
    edit["wordsToCheck"] = [link.get_attribute("data-word") for link in links]
    target = next((link for link in links if link.get_attribute("data-word").startswith("bow")), links[0] if links else None)
    if target is None:
        edit["error"] = "no word to check"
        return edit
    word = target.get_attribute("data-word")
    edit["word"] = word
    target.click()
    editor = driver.find_element(By.ID, "poem-editor")
    edit["selected"] = driver.execute_script(
        "var e = arguments[0]; return e.value.slice(e.selectionStart, e.selectionEnd);", editor
    )
    edit["editorFocused"] = driver.switch_to.active_element == editor
    fix = "bowl!" if word.startswith("bow") else word + "x"
    edit["fix"] = fix
    editor.send_keys(fix)
    shot = os.path.join(screenshots, "page-phone-editing.png")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", editor)
    driver.save_screenshot(shot)
    # The note and the downloads follow a moment later.
    try:
        wait_for(driver, 30, lambda: fix in downloads_of(driver).get("poem.txt", ""))
    except TimeoutException:
        edit["error"] = "the downloads did not follow the edit"
    files = downloads_of(driver)
    edit["txtHasFix"] = fix in files.get("poem.txt", "") and word not in files.get("poem.txt", "").split(fix)[0][-40:]
    edit["htmlHasFix"] = fix in files.get("poem.html", "")
    edit["emlHasFix"] = fix in eml_body(files.get("poem.eml", ""))
    edit["noteHasFix"] = fix in driver.find_element(By.ID, "note").text
    chips = [link for link in driver.find_elements(By.CSS_SELECTOR, "a.doubt-link") if link.get_attribute("data-word") == word]
    edit["wordFixed"] = bool(chips) and "fixed" in (chips[0].get_attribute("class") or "")
    mailto = driver.find_element(By.ID, "mailto").get_attribute("href")
    edit["mailtoHasFix"] = fix in urllib.parse.unquote(mailto)
    # Share: the stub gets the edited poem as text and the love note as a file.
    driver.find_element(By.ID, "share").click()
    try:
        wait_for(driver, 30, lambda: driver.execute_script("return window.__shares.length > 0 && window.__shares[0].done;"))
    except TimeoutException:
        edit["error"] = "navigator.share was not called"
    shares = driver.execute_script("return window.__shares;") or []
    if shares:
        share = shares[0]
        edit["sharedTitle"] = share.get("title")
        edit["sharedTextHasFix"] = fix in (share.get("text") or "")
        edit["sharedTextHasAlex"] = "Alex" in (share.get("text") or "")
        edit["sharedFiles"] = [(f["name"], f["type"]) for f in share.get("files", [])]
        edit["sharedFileHasFix"] = any(fix in f["text"] for f in share.get("files", []))
    edit["shareStatus"] = driver.find_element(By.ID, "action-status").text
    # A second edit, and the download taken at once: it waits for the note to follow.
    editor.send_keys(Keys.END)
    driver.execute_script(
        "var e = arguments[0]; e.focus(); e.setSelectionRange(e.value.length, e.value.length);", editor
    )
    editor.send_keys(" Amen.")
    driver.find_element(By.CSS_SELECTOR, "a[download='poem.txt']").click()
    saved = os.path.join(downloads, "poem.txt")
    try:
        wait_for(driver, 30, lambda: os.path.exists(saved) and not glob.glob(os.path.join(downloads, "*.crdownload")))
        with open(saved, encoding="utf-8") as handle:
            text = handle.read()
        edit["downloadedAtOnceHasEdit"] = "Amen." in text and fix in text
    except TimeoutException:
        edit["downloadedAtOnceHasEdit"] = False
        edit["downloadFolder"] = os.listdir(downloads)
    driver.execute_script("window.scrollTo(0, 0);")
    shot_note = os.path.join(screenshots, "page-phone-note-edited.png")
    full_page_screenshot(driver, shot_note, size, True)
    edit["screenshots"] = [shot, shot_note]
    return edit


def run_mistake_with_javascript(url, image, screenshots, timeout):
    """Half a pair of names is refused before upload; a mistake only the server finds keeps the photo."""
    result = {}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, PHONE, True)
        try:
            form = fill(driver, url, image, None, "Alex", submit=False)
            driver.execute_script("window.__samePage = true;")
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            time.sleep(0.5)
            result["refusedInPage"] = driver.execute_script("return window.__samePage === true;")
            result["alert"] = driver.find_element(By.ID, "form-alert").text
            result["focused"] = driver.switch_to.active_element.get_attribute("name")
            result["fileStillChosen"] = driver.execute_script("return document.querySelector('input[type=file]').files.length;")
            shot = os.path.join(screenshots, "page-phone-names-refused.png")
            full_page_screenshot(driver, shot, PHONE, True)
            # A mistake the page's check does not see (the form sent as it is): the server's.
            driver.execute_script("document.getElementById('poem-form').submit();")
            WebDriverWait(driver, timeout).until(lambda d: d.execute_script("return window.__samePage !== true;"))
            WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "kept")))
            result["serverAlert"] = driver.find_element(By.ID, "form-alert").text
            result["keptText"] = driver.find_element(By.ID, "kept").text
            result["keptInFileInput"] = driver.execute_script(
                "var f = document.querySelector('input[type=file]').files; return f.length === 1 ? f[0].name : null;"
            )
            result["keptPreviewLoaded"] = driver.execute_script(
                "var i = document.getElementById('kept-preview'); return !i.hidden && i.complete && i.naturalWidth > 0;"
            )
            result["replaceWithKept"] = driver.find_element(By.NAME, "replaceWith").get_attribute("value")
            result["invalidFocused"] = driver.switch_to.active_element.get_attribute("name")
            result["axeKept"] = run_axe(driver)
            shot_kept = os.path.join(screenshots, "page-phone-photo-kept.png")
            full_page_screenshot(driver, shot_kept, PHONE, True)
            driver.find_element(By.NAME, "find").send_keys("Lenore")
            driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            note = note_of(driver, timeout)
            result["alexCount"] = note.text.count("Alex")
            result["policyViolations"] = policy_violations(driver)
            result["screenshots"] = [shot, shot_kept]
        finally:
            driver.quit()
    return result


def run_hostile(url, image, screenshots, timeout):
    result = {}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, PHONE, True)
        try:
            fill(driver, url, image, "Lenore", HOSTILE)
            note = note_of(driver, timeout)
            result["shownAsText"] = HOSTILE in note.text
            result["editorHoldsIt"] = HOSTILE in driver.execute_script("return document.getElementById('poem-editor').value;")
            result["title"] = driver.title
            result["injectedImages"] = len(driver.find_elements(By.CSS_SELECTOR, "#note img, #editor img"))
            shot = os.path.join(screenshots, "page-phone-hostile-name.png")
            full_page_screenshot(driver, shot, PHONE, True)
            result["screenshots"] = [shot]
        except UnexpectedAlertPresentException:
            result["alert"] = True
        finally:
            driver.quit()
    return result


def run_without_javascript(url, image, screenshots, timeout):
    result = {}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, PHONE, True, javascript=False)
        try:
            # The mistake: only your love's name. The server says so and keeps the photo.
            fill(driver, url, image, None, "Alex", press_enter=True)
            across_navigation(driver, timeout, expected_conditions.presence_of_element_located((By.ID, "kept")))
            result["alert"] = driver.find_element(By.ID, "form-alert").text
            result["keptText"] = driver.find_element(By.ID, "kept").text
            result["fileInputEmpty"] = driver.find_element(By.CSS_SELECTOR, "input[type=file]").get_attribute("value") == ""
            shot_kept = os.path.join(screenshots, "page-phone-no-javascript-photo-kept.png")
            full_page_screenshot(driver, shot_kept, PHONE, True)
            # The fix, without choosing the photo again.
            driver.find_element(By.NAME, "find").send_keys("Lenore" + Keys.ENTER)
            note = note_of(driver, timeout)
            result["alexCount"] = note.text.count("Alex")
            result["copyVisible"] = visible(driver, "copy")
            result["shareVisible"] = visible(driver, "share")
            result["updateVisible"] = visible(driver, "update")
            result["downloads"] = [
                link.get_attribute("download") for link in driver.find_elements(By.CSS_SELECTOR, "a[download]")
            ]
            shot = os.path.join(screenshots, "page-phone-no-javascript.png")
            full_page_screenshot(driver, shot, PHONE, True)
            # An edit, posted back: the downloads and the e-mail link carry it.
            # (With JavaScript off, chromedriver hangs on click(); keys work.)
            editor = driver.find_element(By.ID, "poem-editor")
            editor.send_keys(Keys.CONTROL, Keys.END)
            editor.send_keys(" Amen.")
            driver.find_element(By.ID, "update").send_keys(Keys.ENTER)
            across_navigation(driver, timeout, lambda d: "Amen." in d.find_element(By.ID, "note").text)
            files = downloads_of(driver)
            result["editedTxt"] = "Amen." in files.get("poem.txt", "")
            result["editedHtml"] = "Amen." in files.get("poem.html", "")
            result["editedEml"] = "Amen." in eml_body(files.get("poem.eml", ""))
            result["editedMailto"] = "Amen." in urllib.parse.unquote(driver.find_element(By.ID, "mailto").get_attribute("href"))
            result["editedAlexCount"] = driver.find_element(By.ID, "note").text.count("Alex")
            shot_edit = os.path.join(screenshots, "page-phone-no-javascript-edited.png")
            full_page_screenshot(driver, shot_edit, PHONE, True)
            result["screenshots"] = [shot_kept, shot, shot_edit]
        finally:
            driver.quit()
    return result


def run_french(url, screenshots):
    result = {}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, PHONE, True, french=True)
        try:
            driver.get(url)
            WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "poem-form")))
            result["lang"] = driver.execute_script("return document.documentElement.lang;")
            result["heading"] = driver.find_element(By.TAG_NAME, "h1").text
            result["axeForm"] = run_axe(driver)
            shot = os.path.join(screenshots, "page-phone-french-form.png")
            full_page_screenshot(driver, shot, PHONE, True)
            result["screenshots"] = [shot]
        finally:
            driver.quit()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--phone-image", required=True, help="the photo for the phone run (a misread word to fix)")
    parser.add_argument("--image", required=True, help="the photo for the desktop run")
    parser.add_argument("--small-image", required=True, help="a quicker photo for the other runs")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--timeout", type=int, default=120)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    report = {}
    step = "start"
    try:
        with tempfile.TemporaryDirectory(prefix="snap-poem-downloads-") as downloads:
            step = "phone"
            report["phone"] = run_width(
                "phone", arguments.url, arguments.phone_image, PHONE, True, arguments.screenshots, arguments.timeout, downloads
            )
            step = "desktop"
            report["desktop"] = run_width(
                "desktop", arguments.url, arguments.image, DESKTOP, False, arguments.screenshots, arguments.timeout, downloads,
                show_reading=True,
            )
        step = "mistake"
        report["mistake"] = run_mistake_with_javascript(
            arguments.url, arguments.small_image, arguments.screenshots, arguments.timeout
        )
        step = "hostile"
        report["hostile"] = run_hostile(arguments.url, arguments.small_image, arguments.screenshots, arguments.timeout)
        step = "noJavaScript"
        report["noJavaScript"] = run_without_javascript(
            arguments.url, arguments.small_image, arguments.screenshots, arguments.timeout
        )
        step = "french"
        report["french"] = run_french(arguments.url, arguments.screenshots)
    except TimeoutException as error:
        report["error"] = f"{step}: timed out waiting for the page: {error}"
    except Exception as error:  # reported, so that the Swift test shows it
        report["error"] = f"{step}: {type(error).__name__}: {error}"
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
