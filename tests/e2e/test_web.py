"""The web page at / and Neo4j Browser, in a real browser: Playwright driving Debian's Chromium
(/usr/bin/chromium; scripts/test.sh installs it when absent) against a real `kmrag serve --insecure-local`
over the real services, with the demo corpus and a note whose text is markup ingested.

KMRAG_SCREENSHOTS_DIR=docs/screenshots: also save the screenshots there (the committed ones come from that)."""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.fixtures.cli import clear_tenant, kmrag_json, server_env
from tests.fixtures.server import start_server, wait_job

BROWSER_URL = os.environ.get("KMRAG_NEO4J_BROWSER_URL", "http://127.0.0.1:7474/browser/")  # services/up.sh sets it
pytestmark = pytest.mark.e2e
QUESTION = "How much can I receive if I am denied boarding, for flights from Delhi to Munich?"
UNANSWERABLE = "How many employees does Air India have?"  # the corpus names Air India, not its staff
XSS_QUESTION = "What is the Oslo lounge code in terminal B?"
XSS_NOTE = ("Lounge notice for Oslo Gardermoen.\n\nThe Oslo lounge code is <script>window.__xss = 1</script> and the "
            "lounge map is <img src=x onerror=\"window.__xss = 2\"> on the wall of terminal B.\n")
TIMEOUT_MS = 60_000


def chromium_path() -> str:
    path = os.environ.get("KMRAG_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail("no chromium: `apt-get install -y chromium` (scripts/test.sh does it)", pytrace=False)
    return path


def shot(page: Any, tmp: Path, name: str, **kw: Any) -> None:
    page.screenshot(path=str(tmp / name), **kw)
    out = os.environ.get("KMRAG_SCREENSHOTS_DIR")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(tmp / name, Path(out) / name)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server in --insecure-local mode with the demo corpus and the markup note ingested."""
    tmp = tmp_path_factory.mktemp("web")
    root = tmp / "root"
    root.mkdir()
    for f in (resources.files("kmrag.demo") / "corpus").iterdir():
        (root / f.name).write_bytes(f.read_bytes())
    (root / "lounge-notice.txt").write_text(XSS_NOTE, encoding="utf-8")
    env = server_env("web_")
    env.update(KMRAG_DATA_DIR=str(tmp / "data"), KMRAG_SERVER_INGEST_ROOT=str(root), KMRAG_SERVER_POOL_SIZE="4")
    server = start_server(env, tmp / "logs", "--insecure-local")
    try:
        client = server.client()
        r = client.post("/v1/ingest", json={"paths": ["."]})
        assert r.status_code == 202, r.text
        job = wait_job(client, r.json()["id"])
        assert job["status"] == "completed", job
        yield {"server": server, "client": client, "env": env, "tmp": tmp}
        client.close()
    finally:
        server.stop()
        clear_tenant(env)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), headless=True, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def test_page_asks_cites_opens_units_draws_paths(web: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1360, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web["server"].url + "/")
    expect(page.locator("#mode")).to_contain_text("local mode")
    expect(page.locator("#key-form")).to_be_hidden()  # --insecure-local: no key asked for
    expect(page.locator("#jobs")).to_contain_text("completed")
    page.fill("#question", QUESTION)
    page.click("#ask-button")
    expect(page.locator("#answer-direct")).to_contain_text("600 EUR", timeout=TIMEOUT_MS)
    cites = page.locator("#answer-text button.cite")
    expect(cites.first).to_be_visible()
    cited = sorted({c.get_attribute("data-unit") for c in cites.all()})
    assert len(cited) >= 2 and all(u and u.startswith("u_") for u in cited), cited
    answer_id = page.locator("#answer-meta").inner_text().split()[1]
    audit = web["client"].get(f"/v1/answers/{answer_id}").json()
    assert sorted({c["unit_id"] for c in audit["citations"]}) == cited, audit

    # how sure, in words as well as a bar, and why
    ans = audit["answer"]
    badge = page.locator("#confidence-badge")
    expect(badge).to_be_visible()
    band = "high" if ans["confidence"] >= 0.8 else "medium"  # found: at or above the threshold (0.5)
    expect(badge).to_contain_text(f"{sure_percent(ans['confidence'])}% sure · {band}")
    expect(badge).to_have_class(f"badge {band}")
    assert page.locator("#confidence-bar").evaluate("m => m.value") == pytest.approx(ans["confidence"])
    expect(page.locator("#confidence-why")).to_have_text("why: " + ans["confidence_why"])
    expect(page.locator("#evidence")).to_be_hidden()
    # the direct answer was computed: the band's rule, then each span it read, cited
    assert ans["basis"]["kind"] == "band", ans["basis"]
    basis = page.locator("#answer-basis")
    expect(basis).to_be_visible()
    expect(page.locator("#basis-rule")).to_have_text("computed: " + ans["basis"]["rule"])
    expect(basis.locator("li button.cite")).to_have_count(len(ans["basis"]["entities"]))
    assert {b.get_attribute("data-unit") for b in basis.locator("button.cite").all()} <= set(cited)

    # a citation opens its unit in the panel: full text, source, version, section, current
    uid = cites.first.get_attribute("data-unit")
    unit = web["client"].get(f"/v1/units/{uid}").json()
    cites.first.click()
    panel = page.locator("#unit-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#unit-id")).to_have_text(uid)
    expect(page.locator("#unit-status")).to_have_text("current")
    expect(page.locator("#unit-text")).to_have_text(unit["content"])
    expect(page.locator("#unit-meta")).to_contain_text(unit["source_id"])
    expect(page.locator("#unit-meta")).to_contain_text(unit["source_version"][:12])
    expect(page.locator("#unit-meta")).to_contain_text(" › ".join(unit["section_path"]))
    expect(page.locator("#unit-text mark")).to_have_count(1)  # the cited span

    # the relation paths, as a graph: entity nodes, relation-type edges
    graph = page.locator("#paths-graph")
    expect(graph).to_be_visible()
    assert graph.locator("g.node").count() >= 2 and graph.locator("g.edge").count() >= 1
    expect(graph).to_contain_text("OPERATE_FLIGHT_TO")
    expect(graph).to_contain_text("Munich")

    # the Neo4j Browser button: the bolt host's Browser, the evidence query in the editor
    button = page.locator("#neo4j-button")
    expect(button).to_be_visible()
    href = button.get_attribute("href") or ""
    assert href.startswith(BROWSER_URL + "?"), href
    q = parse_qs(urlsplit(href).query)
    assert q["cmd"] == ["edit"] and q["dbms"] == ["bolt://127.0.0.1:7687"], q
    assert answer_id in q["arg"][0] and "CITES" in q["arg"][0], q
    expect(page.locator("#answers")).to_contain_text(QUESTION)
    shot(page, web["tmp"], "web-answer.png")

    # a past answer reopens from the list, with its citations
    page.reload()
    page.locator("#answers button.link").first.click()
    expect(page.locator("#answer-meta")).to_contain_text(answer_id)
    expect(page.locator("#answer-text button.cite")).to_have_count(cites.count())
    assert errors == [], errors
    page.close()


def test_an_answer_read_along_the_graph_shows_and_highlights_its_path(web: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1360, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web["server"].url + "/")
    page.fill("#question", "What is the capital of the state where Munich Airport is located?")
    page.click("#ask-button")
    expect(page.locator("#answer-direct")).to_contain_text("Munich", timeout=TIMEOUT_MS)
    answer_id = page.locator("#answer-meta").inner_text().split()[1]
    ans = web["client"].get(f"/v1/answers/{answer_id}").json()["answer"]
    assert ans["basis"]["kind"] == "path", ans["basis"]
    # the hops, each with the unit its edge came from
    expect(page.locator("#basis-rule")).to_have_text("read along the graph's relations:")
    hops = page.locator("#answer-basis li.basis-hop")
    expect(hops).to_have_count(2)
    expect(hops.first).to_contain_text("Munich Airport \u2014located in\u2192 Bavaria")
    expect(hops.nth(1)).to_contain_text("Munich \u2014capital of\u2192 Bavaria")
    assert [b.get_attribute("data-unit") for b in hops.locator("button.cite").all()] == \
        [h["unit_id"] for h in ans["basis"]["hops"]]
    # and the graph highlights exactly those edges
    on_path = page.locator("#paths-graph g.edge.answer-path")
    expect(on_path).to_have_count(2)
    expect(on_path.first).to_contain_text("LOCATED_IN")
    expect(on_path.nth(1)).to_contain_text("CAPITAL_OF")
    shot(page, web["tmp"], "web-path-answer.png")
    assert errors == [], errors
    page.close()


def sure_percent(p: float) -> int:
    return math.floor(p * 100 + 0.5)  # as the page rounds (Math.round)


def test_not_found_answer_shows_the_best_evidence(web: dict[str, Any], browser: Any) -> None:
    """Below the confidence threshold the page says "Information not found in knowledge map", how sure and why,
    then the best evidence found, marked as not an answer, its citations clickable."""
    from playwright.sync_api import expect

    # the same tenant through a server whose threshold no answer of this corpus reaches
    env = {**web["env"], "KMRAG_MIN_CONFIDENCE": "0.99", "KMRAG_DATA_DIR": str(web["tmp"] / "strict-data")}
    server = start_server(env, web["tmp"] / "strict-logs", "--insecure-local")
    page = browser.new_page(viewport={"width": 1360, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url + "/")
        page.fill("#question", UNANSWERABLE)
        page.click("#ask-button")
        expect(page.locator("#status")).to_have_text("not found in the knowledge map", timeout=TIMEOUT_MS)
        expect(page.locator("#answer-text")).to_have_text("Information not found in knowledge map")
        expect(page.locator("#answer-direct")).to_have_text("")
        expect(page.locator("#answer-basis")).to_be_hidden()
        expect(page.locator("#neo4j-button")).to_be_hidden()  # no answer, so no answer's evidence query
        evidence = page.locator("#evidence")
        expect(evidence).to_be_visible()
        expect(evidence.locator("h3")).to_have_text("Best evidence found (not an answer)")
        answer_id = page.locator("#answer-meta").inner_text().split()[1]
        ans = web["client"].get(f"/v1/answers/{answer_id}").json()["answer"]
        assert not ans["found"] and ans["evidence"] and 0 < ans["confidence"] < 0.99, ans
        expect(evidence.locator("p.statement")).to_have_count(len(ans["evidence"]))
        for i, e in enumerate(ans["evidence"]):
            expect(evidence.locator("p.statement").nth(i)).to_contain_text(e["text"])
        badge = page.locator("#confidence-badge")
        expect(badge).to_contain_text(f"{sure_percent(ans['confidence'])}% sure · low (below 99%: not an answer)")
        expect(page.locator("#confidence-why")).to_have_text("why: " + ans["confidence_why"])

        # an evidence citation opens its unit, the cited span marked
        uid = ans["evidence"][0]["unit_ids"][0]
        evidence.locator(f'button.cite[data-unit="{uid}"]').first.click()
        expect(page.locator("#unit-id")).to_have_text(uid)
        expect(page.locator("#unit-text mark")).to_have_count(1)
        expect(page.locator("#answers li", has_text=answer_id)).to_contain_text("not found")  # in the recent list
        shot(page, web["tmp"], "web-not-found.png")
        assert errors == [], errors
    finally:
        page.close()
        server.stop()


def test_document_markup_is_shown_as_text(web: dict[str, Any], browser: Any) -> None:
    from playwright.sync_api import expect

    got = web["client"].post("/v1/ask", json={"question": XSS_QUESTION}).json()
    note = [u["id"] for u in got["units"] if u["source_id"] == "lounge-notice.txt" and "<script>" in u["snippet"]]
    assert note, got["units"]
    page = browser.new_page()
    page.goto(web["server"].url + "/")
    page.fill("#question", XSS_QUESTION)
    page.click("#ask-button")
    expect(page.locator("#answer")).to_be_visible(timeout=TIMEOUT_MS)
    page.locator(f'#ranked button.cite[data-unit="{note[0]}"]').click()
    text = page.locator("#unit-text")
    expect(text).to_contain_text("<script>window.__xss = 1</script>")
    expect(text).to_contain_text('<img src=x onerror="window.__xss = 2">')
    expect(page.locator("#ranked")).to_contain_text("<script>")
    assert page.locator("main script, main img").count() == 0
    assert page.evaluate("() => window.__xss") is None
    page.close()


def neo4j_connect(page: Any) -> None:
    from playwright.sync_api import expect

    page.fill('[data-testid="username"]', os.environ.get("KMRAG_NEO4J_USER", "neo4j"))
    page.fill('[data-testid="password"]', os.environ["KMRAG_NEO4J_PASSWORD"])
    page.click('[data-testid="connect"]')
    expect(page.locator('[data-testid="stream"]')).to_contain_text("You are connected", timeout=TIMEOUT_MS)


def run_in_browser(page: Any, command: str) -> None:
    page.click('[data-testid="activeEditor"]')
    page.keyboard.insert_text(command)  # no key events: the editor's bracket auto-closing stays out
    page.click('[data-testid="editor-Run"]')


def test_neo4j_browser_shows_the_evidence(web: dict[str, Any], browser: Any) -> None:
    """The evidence query `kmrag ask` prints, run in Neo4j Browser; then the page's button."""
    from playwright.sync_api import expect

    asked = kmrag_json("ask", QUESTION, env=web["env"])
    answer_id, b = asked["id"], asked["browser"]
    cited = sorted({c["unit_id"] for c in asked["citations"]})
    assert cited and b["params"].startswith(":param {")
    bolt = urlsplit(os.environ["KMRAG_NEO4J_URI"])
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.goto(f"{BROWSER_URL}?dbms=bolt://{bolt.hostname}:{bolt.port or 7687}")
    neo4j_connect(page)
    run_in_browser(page, b["params"])
    expect(page.locator('[data-testid="frame"]').first).to_contain_text(answer_id)
    run_in_browser(page, b["query"])
    frame = page.locator('[data-testid="frame"]').first
    expect(frame.locator('[data-testid="cypherFrameSidebarTable"]')).to_be_visible(timeout=TIMEOUT_MS)
    frame.locator('[data-testid="cypherFrameSidebarTable"]').click()  # the Table view: every row, in full
    for needle in (answer_id, *cited):
        expect(frame).to_contain_text(needle)

    # the web page's button: Neo4j Browser with the query in the editor; Run shows the evidence graph
    ui = context.new_page()
    ui.goto(web["server"].url + "/")
    ui.locator("#answers button.link").first.click()
    expect(ui.locator("#neo4j-button")).to_be_visible()
    href = ui.locator("#neo4j-button").get_attribute("href")
    context.close()
    context = browser.new_context(viewport={"width": 1360, "height": 900})  # a fresh one: nothing remembered
    page = context.new_page()
    page.goto(href)
    neo4j_connect(page)
    expect(page.locator('[data-testid="activeEditor"]')).to_contain_text(answer_id)  # the link filled the editor
    page.click('[data-testid="editor-Run"]')
    frame = page.locator('[data-testid="frame"]').first
    expect(frame.locator('[data-testid="property-details-overview-node-label-Answer"]')).to_be_visible(
        timeout=TIMEOUT_MS)
    expect(frame.locator('[data-testid="property-details-overview-node-label-Unit"]')).to_contain_text(
        f"({len(cited)})")
    page.wait_for_timeout(1500)  # the graph's layout settles
    shot(page, web["tmp"], "neo4j-browser-evidence.png")
    frame.locator('[data-testid="cypherFrameSidebarTable"]').click()
    for needle in (answer_id, *cited):
        expect(frame).to_contain_text(needle)
    context.close()
