"""docs/openapi.yaml: it is valid OpenAPI 3.1, and the running server answers as it says.

Each answer is checked against the schema the document gives for its path, method, status and
content type, so the page (which is written against the document) and the server agree.
Runs against the same server as the browser tests (see catalogue_server.py).
"""

import http.client
import json
import re
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
DOCUMENT = yaml.safe_load(DOCUMENT_PATH.read_text())
REGISTRY = Registry().with_resource("urn:openapi", Resource.from_contents(DOCUMENT, default_specification=DRAFT202012))


def node_path(ref):
    assert ref.startswith("#/"), ref
    return [part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/")]


def resolve_ref(node):
    while isinstance(node, dict) and "$ref" in node:
        target = DOCUMENT
        for part in node_path(node["$ref"]):
            target = target[part]
        node = target
    return node


def operation_for(method, path):
    """The document's operation for a request path: literal paths first, as the server matches."""
    candidates = []
    for template, item in DOCUMENT["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in item:
            candidates.append((template.count("{"), template, item[method.lower()]))
    assert candidates, f"{method} {path} is not in the document"
    return sorted(candidates)[0][1:]


def check(method, path, status, body, content_type="application/json"):
    """Fails unless the document lists `status` for the request and `body` matches its schema."""
    template, operation = operation_for(method, urllib.parse.urlsplit(path).path)
    responses = operation["responses"]
    assert str(status) in responses, f"{method} {template} answered {status}, which the document does not list"
    response = resolve_ref(responses[str(status)])
    schema = response["content"][content_type]["schema"]
    errors = list(Draft202012Validator({"$ref": "urn:openapi" + schema["$ref"]}, registry=REGISTRY).iter_errors(body))
    assert errors == [], f"{method} {path} → {status}: {[error.message for error in errors[:3]]}"


def request(server, method, path, body=None, headers=None):
    """(status, JSON body, headers) of one request."""
    data = body.encode() if isinstance(body, str) else body
    req = urllib.request.Request(server.url + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.load(response), response.headers
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), error.headers


def exchange(server, method, path, expected, body=None, headers=None):
    """Makes a request, checks it against the document, and returns its JSON body."""
    status, answer, response_headers = request(server, method, path, body, headers)
    assert status == expected, f"{method} {path}: {status} {answer}"
    assert response_headers.get("Content-Type", "").startswith("application/json")
    check(method, path, status, answer)
    return answer


# --- The document ------------------------------------------------------------------------------


def test_the_document_is_valid_openapi_3_1():
    validate(DOCUMENT)
    assert DOCUMENT["openapi"].startswith("3.1")


# --- Reading ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/countries?q=bog&scope=capital",
        "/api/countries?q=co&scope=any&match=contains&limit=5&offset=2",
        "/api/countries?q=united%20ki&match=words",
        "/api/countries?q=ivory",
        "/api/products?q=ipod%202007&match=terms",
        "/api/products?scope=Device",
        "/api/countries/sections",
        "/api/countries/sections?q=co&selected=co",
        "/api/countries/sections?q=co&selected=FR",
        "/api/countries/sections?scope=capital",
        "/api/products/sections?q=mac&match=words",
        "/api/countries/sections/S?limit=10",
        "/api/countries/sections/C?q=co&offset=1&limit=2",
        "/api/products/sections/%23",
        "/api/products/sections/-?q=mac&match=words",
        "/api/countries/scopes?q=co",
        "/api/products/scopes?q=i",
        "/api/countries/suggestions?q=phillipines",
        "/api/countries/suggestions?q=bogata&scope=capital&match=words",
        "/api/products/suggestions?q=ipohne&scope=device",
        "/api/countries/co",
        "/api/products/4",
    ],
)
def test_reads_match_the_document(server, path):
    exchange(server, "GET", path, 200)


def test_highlights_concatenate_to_the_field(server):
    answer = exchange(server, "GET", "/api/countries?q=co&scope=any&match=contains", 200)
    assert len(answer["highlights"]) == len(answer["items"]) > 0
    for item, highlight in zip(answer["items"], answer["highlights"]):
        for field, segments in highlight.items():
            text = "".join(segment["text"] for segment in segments)
            if field == "alias":
                assert text in item["aliases"]
            else:
                assert text == item[field]
            assert any(segment["match"] for segment in segments)


def test_sections_say_where_the_selected_record_is(server):
    answer = exchange(server, "GET", "/api/countries/sections?q=co&selected=CO", 200)
    position = answer["selected"]
    batch = exchange(server, "GET", f"/api/countries/sections/{position['title']}?q=co&offset={position['offset']}&limit=1", 200)
    assert batch["items"][0]["code"] == "CO"
    assert exchange(server, "GET", "/api/countries/sections?q=co&selected=FR", 200)["selected"] is None
    assert sum(section["count"] for section in answer["sections"]) == answer["total"]


# --- Errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path, status",
    [
        ("/api/countries?scope=x", 400),
        ("/api/products?scope=no-such-type", 400),
        ("/api/countries?match=fuzzyish", 400),
        ("/api/countries?limit=0", 400),
        ("/api/countries?limit=501", 400),
        ("/api/countries?offset=-1", 400),
        ("/api/countries?q=" + "a" * 257, 400),
        ("/api/countries/sections?scope=x", 400),
        ("/api/countries/sections/S?limit=501", 400),
        ("/api/countries/sections/X", 404),
        ("/api/countries/scopes?match=x", 400),
        ("/api/countries/suggestions?q=x&scope=planet", 400),
        ("/api/products/suggestions?q=x&scope=no-such-type", 400),
        ("/api/countries/XX", 404),
        ("/api/products/999999999", 404),
        ("/api/products/not-a-number", 404),
        ("/assets/..%2Fapp.js", 404),
        ("/assets/nope.js", 404),
    ],
)
def test_errors_match_the_document(server, path, status):
    answer = exchange(server, "GET", path, status)
    assert "\n" not in answer["error"]


def test_bad_scope_lists_the_valid_ones(server):
    answer = exchange(server, "GET", "/api/countries?scope=x", 400)
    assert answer["error"] == "unknown scope 'x' for countries; valid scopes: name, capital, any"


@pytest.mark.parametrize("query", ["q=%ZZ", "q=%FF%FE", "q=%C3", "q=%00", "q=%27%3B%20DROP%20TABLE%20country%3B--",
                                   'q="*"', "q=NEAR(a%20b)", "q=%E2%80%AE"])
def test_hostile_queries_give_results_or_a_400(server, query):
    status, answer, _ = request(server, "GET", "/api/countries?" + query)
    assert status in (200, 400), (query, status, answer)
    check("GET", "/api/countries", status, answer)


# --- Import -----------------------------------------------------------------------------------


def test_import_needs_the_token(server):
    csv = "name,type,year,price\nToken test,device,2000,1\n"
    status, answer, headers = request(server, "POST", "/api/products/import", csv)
    assert status == 401, answer
    check("POST", "/api/products/import", 401, answer)
    assert headers.get("WWW-Authenticate", "").startswith("Bearer")
    exchange(server, "POST", "/api/products/import", 401, csv, {"Authorization": "Basic abc"})
    exchange(server, "POST", "/api/products/import", 403, csv, {"Authorization": "Bearer wrong-" + secrets.token_hex(8)})


def test_import_abort_writes_nothing_and_names_the_line(server):
    name = f"Abort test {secrets.token_hex(4)}"
    csv = f"name,type,year,price\n{name},device,2000,1\nBad year,device,20x7,1\n"
    answer = exchange(server, "POST", "/api/products/import?format=csv", 400, csv, auth(server))
    assert answer["error"] == 'body:3: year: not a whole number: "20x7"'
    assert exchange(server, "GET", "/api/products?" + urllib.parse.urlencode({"q": name}), 200)["total"] == 0


def test_import_skip_reports_issues(server):
    name = f"Skip test {secrets.token_hex(4)}"
    body = "\n".join([json.dumps({"name": name, "type": "device", "year": 2000, "price": 1}),
                      json.dumps({"name": name + " bad", "type": "device", "year": "20x7", "price": 1})]) + "\n"
    answer = exchange(server, "POST", "/api/products/import?format=ndjson&onError=skip", 200, body, auth(server))
    assert answer["added"] == 1 and answer["skipped"] == 1 and len(answer["issues"]) == 1
    assert answer["issues"][0].startswith("body:2: year:")


def test_suggestions_name_what_was_meant(server):
    assert exchange(server, "GET", "/api/countries/suggestions?q=phillipines", 200)["suggestions"] == ["Philippines"]
    assert exchange(server, "GET", "/api/countries/suggestions?q=bogata&scope=capital", 200)["suggestions"] == ["Bogotá"]
    assert exchange(server, "GET", "/api/countries/suggestions?q=phillipines", 200)["foundWith"] is None
    assert exchange(server, "GET", "/api/countries/suggestions?q=salvador", 200)["foundWith"] == {"match": "words", "count": 1}


def test_import_reads_json_by_its_content_type(server):
    name = f"JSON test {secrets.token_hex(4)}"
    body = json.dumps([{"name": name, "type": "device", "year": 2001, "price": 2}])
    headers = {**auth(server), "Content-Type": "application/json"}
    assert exchange(server, "POST", "/api/products/import", 200, body, headers)["added"] == 1


def test_import_bad_format_is_a_400(server):
    exchange(server, "POST", "/api/products/import?format=xml", 400, "<x/>", auth(server))
    exchange(server, "POST", "/api/products/import?onError=maybe", 400, "name,type\n", auth(server))


@pytest.mark.parametrize(
    "entity, fmt, content_type",
    [
        ("countries", "csv", "text/csv"),
        ("products", "json", "application/json"),
        ("products", "ndjson", "application/x-ndjson"),
    ],
)
def test_export_is_a_download_that_imports_back_unchanged(server, entity, fmt, content_type):
    template, operation = operation_for("GET", f"/api/{entity}/export")
    assert content_type in operation["responses"]["200"]["content"], template
    with urllib.request.urlopen(f"{server.url}/api/{entity}/export?format={fmt}", timeout=30) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith(content_type)
        assert response.headers["Content-Disposition"] == f'attachment; filename="{entity}.{fmt}"'
        body = response.read()
    if fmt == "json":
        assert isinstance(json.loads(body), list)
    rows = len(json.loads(body)) if fmt == "json" else body.count(b"\n") - (1 if fmt == "csv" else 0)
    result = exchange(server, "POST", f"/api/{entity}/import?format={fmt}", 200, body, auth(server))
    assert (result["added"], result["updated"], result["skipped"]) == (0, 0, 0), result
    assert result["unchanged"] == rows > 0, result


def test_export_bad_format_is_a_400(server):
    answer = exchange(server, "GET", "/api/products/export?format=xml", 400)
    assert answer["error"] == "unknown format 'xml'; valid values: csv, json, ndjson"


def test_import_over_the_limit_is_a_413(server):
    size = 64 * 1024 * 1024 + 1
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    connection.putrequest("POST", "/api/products/import")
    connection.putheader("Content-Length", str(size))
    connection.putheader("Authorization", f"Bearer {server.token}")
    connection.endheaders()
    chunk = b"x" * (1024 * 1024)
    try:
        for _ in range(65):
            connection.send(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered before reading it all
    response = connection.getresponse()
    answer = json.loads(response.read())
    assert response.status == 413, answer
    check("POST", "/api/products/import", 413, answer)


def auth(server):
    assert server.token, "set CATALOGUE_TOKEN (or use CATALOGUE_SERVE) to test imports"
    return {"Authorization": f"Bearer {server.token}", "Content-Type": "text/csv"}


# --- Changes ----------------------------------------------------------------------------------


def read_events(server, path, events, ready):
    """Reads SSE events into `events` (name, data) until the stream closes."""
    host, port = urllib.parse.urlsplit(server.url).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", path, headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    events.append(("status", (response.status, response.getheader("Content-Type"))))
    name, data = None, []
    while True:
        line = response.fp.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "":
            if name or data:
                events.append((name or "message", "\n".join(data)))
                if name == "ready":
                    ready.set()
            name, data = None, []


def test_change_stream_reports_an_import(server):
    events, ready = [], threading.Event()
    threading.Thread(target=read_events, args=(server, "/api/products/changes", events, ready), daemon=True).start()
    assert ready.wait(10), f"no ready event: {events}"
    assert events[0] == ("status", (200, events[0][1][1])) and events[0][1][1].startswith("text/event-stream")
    assert ("ready", "{}") in events
    name = f"Stream test {secrets.token_hex(4)}"
    answer = exchange(server, "POST", "/api/products/import", 200, f"name,type,year,price\n{name},device,2000,1\n", auth(server))
    assert answer["added"] == 1
    product = exchange(server, "GET", "/api/products?" + urllib.parse.urlencode({"q": name}), 200)["items"][0]
    for _ in range(100):
        changes = [json.loads(data) for event, data in events if event == "change"]
        if any(product["id"] in change["inserted"] or change.get("reload") for change in changes):
            break
        threading.Event().wait(0.1)
    else:
        pytest.fail(f"no change event for product {product['id']}: {events}")
    schema = {"$ref": "urn:openapi#/components/schemas/ChangeSet"}
    for change in changes:
        assert list(Draft202012Validator(schema, registry=REGISTRY).iter_errors(change)) == []
        assert change["entity"] == "products"
