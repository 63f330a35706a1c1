#!/usr/bin/env python3
"""What was read, in a real browser: Debian's Chromium, driven by Selenium, JavaScript off.

Run by ReadingBrowserTests.swift; prints one JSON object with what it saw and saves
screenshots. Two pages:

  --page FILE   a side-by-side page written by SideBySideHTMLExporter, opened from disk;
  --url URL     a running `snap-poem serve`: attach the photo, type the names, tick "Show the
                photo with what was read", submit, and look at the note.

On each, for the replaced words: the link and its boxes before anything happens, while the
pointer rests on the word, while it rests on a box, and after the keyboard's Tab reaches the
word; each time the computed outline of the link and of its first box. With JavaScript
switched off in the browser, whatever highlights is CSS.
"""
import argparse
import json
import os
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def start_browser(profile, width, height):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--hide-scrollbars", "--force-device-scale-factor=1", f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(120)
    return driver


def outline(driver, element):
    """The computed outline of an element: 'none' or e.g. '3px solid rgb(26, 150, 65)'."""
    style = driver.execute_script(
        "var s = getComputedStyle(arguments[0]); return [s.outlineStyle, s.outlineWidth, s.outlineColor];", element)
    return "none" if style[0] == "none" else " ".join(style[1:2] + [style[0]] + style[2:])


def look(driver, shots, name):
    """The replaced words and their boxes, at rest, hovered, and reached with Tab."""
    found = {}
    links = driver.find_elements(By.CSS_SELECTOR, "a.replaced")
    found["links"] = [link.text for link in links]
    found["boxes"] = len(driver.find_elements(By.CSS_SELECTOR, "a.reading-box"))
    image = driver.find_element(By.CSS_SELECTOR, ".reading-photo img")
    found["imageLoaded"] = driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) or 0
    found["labels"] = len(driver.find_elements(By.CSS_SELECTOR, ".reading-label"))
    found["pageWidth"] = driver.execute_script("return document.documentElement.scrollWidth")
    found["viewportWidth"] = driver.execute_script("return document.documentElement.clientWidth")
    if not links:
        return found
    link = links[0]
    box = driver.find_element(By.ID, link.get_attribute("href").split("#")[1])
    found["atRest"] = [outline(driver, link), outline(driver, box)]
    ActionChains(driver).move_to_element(link).perform()
    found["wordHovered"] = [outline(driver, link), outline(driver, box)]
    driver.save_screenshot(os.path.join(shots, f"{name}-word-hovered.png"))
    ActionChains(driver).move_to_element(box).perform()
    found["boxHovered"] = [outline(driver, link), outline(driver, box)]
    ActionChains(driver).move_by_offset(0, 0).move_to_element(driver.find_element(By.TAG_NAME, "h1")).perform()
    # The keyboard: Tab from the top of the page to the first replaced word.
    driver.find_element(By.TAG_NAME, "body").click()
    for _ in range(40):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.switch_to.active_element == link:
            break
    found["tabbedTo"] = driver.switch_to.active_element == link
    found["wordFocused"] = [outline(driver, link), outline(driver, box)]
    driver.save_screenshot(os.path.join(shots, f"{name}-word-focused.png"))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--page")
    parser.add_argument("--url")
    parser.add_argument("--image")
    parser.add_argument("--screenshots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.screenshots, exist_ok=True)
    report = {}
    with tempfile.TemporaryDirectory() as profile:
        driver = start_browser(profile, 1280, 900)
        try:
            if arguments.page:
                driver.get("file://" + os.path.abspath(arguments.page))
                report["page"] = look(driver, arguments.screenshots, "side-by-side")
                driver.save_screenshot(os.path.join(arguments.screenshots, "side-by-side.png"))
            if arguments.url:
                driver.get(arguments.url)
                driver.find_element(By.NAME, "image").send_keys(os.path.abspath(arguments.image))
                driver.find_element(By.NAME, "find").send_keys("Lenore")
                driver.find_element(By.NAME, "replaceWith").send_keys("Alex")
                driver.find_element(By.NAME, "showReading").click()
                driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
                WebDriverWait(driver, 600).until(expected_conditions.presence_of_element_located((By.ID, "note")))
                report["service"] = look(driver, arguments.screenshots, "service-note")
                report["service"]["violations"] = [
                    entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]
                ]
                driver.execute_script("window.scrollTo(0, document.querySelector('.reading-card').offsetTop)")
                driver.save_screenshot(os.path.join(arguments.screenshots, "service-reading.png"))
        except Exception as error:  # reported, so that the Swift test shows it
            report["error"] = f"{type(error).__name__}: {error}"
        finally:
            driver.quit()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
