#!/usr/bin/env python3
"""The snap-poem page in a real browser: Debian's Chromium, driven by Selenium.

Run by BrowserTests.swift against a running `snap-poem serve`; prints one JSON object with
what it saw, and saves screenshots. Steps, at phone width (390 px, mobile emulation) and at
desktop width (1280 px):

  load /, attach the photo, type the names, submit, read the note;

then, at phone width, a name that is markup (it must show as text and never run), and, with
JavaScript switched off, the same form as a plain post.
"""
import argparse
import json
import os
import sys
import tempfile

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, UnexpectedAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
HOSTILE = '<img src=x onerror="document.title=\'pwned\'">'


def start_browser(profile, size, mobile, javascript=True):
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
            {"deviceMetrics": {"width": size["width"], "height": size["height"], "pixelRatio": 2, "touch": True}},
        )
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
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


def submit(driver, url, image, find, replace_with, timeout, press_enter=False):
    driver.get(url)
    form = WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "poem-form")))
    form.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(os.path.abspath(image))
    form.find_element(By.NAME, "find").send_keys(find)
    if press_enter:
        # Without JavaScript, chromedriver cannot click for us; Enter submits the form natively.
        form.find_element(By.NAME, "replaceWith").send_keys(replace_with + Keys.ENTER)
    else:
        form.find_element(By.NAME, "replaceWith").send_keys(replace_with)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return WebDriverWait(driver, timeout).until(expected_conditions.presence_of_element_located((By.ID, "note")))


def visible(driver, element_id):
    elements = driver.find_elements(By.ID, element_id)
    return bool(elements) and elements[0].is_displayed()


def run_width(name, url, image, size, mobile, screenshots, timeout):
    result = {"width": size["width"]}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, size, mobile)
        try:
            driver.get(url)
            WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.ID, "poem-form")))
            result["pageWidth"] = driver.execute_script("return document.documentElement.scrollWidth;")
            result["viewportWidth"] = driver.execute_script("return window.innerWidth;")
            form_shot = os.path.join(screenshots, f"page-{name}-form.png")
            full_page_screenshot(driver, form_shot, size, mobile)
            note = submit(driver, url, image, "Lenore", "Alex", timeout)
            text = note.text
            result["noteText"] = text
            result["alexCount"] = text.count("Alex")
            result["lenoreCount"] = text.count("Lenore")
            result["copyVisible"] = visible(driver, "copy")
            result["downloads"] = [
                link.get_attribute("download") for link in driver.find_elements(By.CSS_SELECTOR, "a[download]")
            ]
            result["mailto"] = (driver.find_element(By.ID, "mailto").get_attribute("href") or "").startswith("mailto:")
            result["noteScrollWidth"] = driver.execute_script("return document.documentElement.scrollWidth;")
            note_shot = os.path.join(screenshots, f"page-{name}-note.png")
            full_page_screenshot(driver, note_shot, size, mobile)
            result["policyViolations"] = policy_violations(driver)
            result["screenshots"] = [form_shot, note_shot]
        finally:
            driver.quit()
    return result


def run_hostile(url, image, screenshots, timeout):
    result = {}
    with tempfile.TemporaryDirectory(prefix="snap-poem-chromium-") as profile:
        driver = start_browser(profile, PHONE, True)
        try:
            note = submit(driver, url, image, "Lenore", HOSTILE, timeout)
            result["shownAsText"] = HOSTILE in note.text
            result["title"] = driver.title
            result["injectedImages"] = len(driver.find_elements(By.CSS_SELECTOR, "#note img"))
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
            note = submit(driver, url, image, "Lenore", "Alex", timeout, press_enter=True)
            result["alexCount"] = note.text.count("Alex")
            result["copyVisible"] = visible(driver, "copy")
            result["downloads"] = [
                link.get_attribute("download") for link in driver.find_elements(By.CSS_SELECTOR, "a[download]")
            ]
            shot = os.path.join(screenshots, "page-phone-no-javascript.png")
            full_page_screenshot(driver, shot, PHONE, True)
            result["screenshots"] = [shot]
        finally:
            driver.quit()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--image", required=True, help="the photo for the phone and desktop runs")
    parser.add_argument("--small-image", required=True, help="a quicker photo for the other runs")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--timeout", type=int, default=120)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    report = {}
    try:
        report["phone"] = run_width("phone", arguments.url, arguments.image, PHONE, True, arguments.screenshots, arguments.timeout)
        report["desktop"] = run_width(
            "desktop", arguments.url, arguments.image, DESKTOP, False, arguments.screenshots, arguments.timeout
        )
        report["hostile"] = run_hostile(arguments.url, arguments.small_image, arguments.screenshots, arguments.timeout)
        report["noJavaScript"] = run_without_javascript(
            arguments.url, arguments.small_image, arguments.screenshots, arguments.timeout
        )
    except TimeoutException as error:
        report["error"] = f"timed out waiting for the page: {error}"
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
