// The Python standard library the phone's engine runs on, precompiled (make vendor).
//
// Pyodide ships its standard library as Python sources (python_stdlib.zip, 2.5 MB), so each
// start of the phone's engine compiled some 150 modules again (asyncio, typing, inspect, …
// which Pyodide's own start imports): most of the engine's load on the phone. This writes
// static/vendor/pyodide/engine_stdlib.zip instead: only the modules Pyodide's start and
// games/rules import (and a few that error paths import late), as bytecode. It is built
// by Pyodide itself under Node, so the bytecode is its Python's, and then checked: a
// fresh Pyodide starts on it and judges taps of random games with games/rules.
//
// Run: node tools/engine-stdlib.mjs   (make vendor runs it)
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE = join(ROOT, "node_modules", "pyodide");
const RULES = join(ROOT, "games", "rules");
const OUT = join(ROOT, "static", "vendor", "pyodide", "engine_stdlib.zip");

// Imported late, on paths a random game may not take (an error's traceback, a text's
// encoding): kept whether or not the run below imported them.
const ALSO = ["encodings", "traceback", "linecache", "tokenize", "token", "textwrap", "string", "copy", "pprint", "reprlib", "numbers", "decimal", "fractions", "statistics", "calendar", "_strptime", "locale", "gettext", "zoneinfo", "difflib", "unicodedata"];

// Every module of games/rules imported, and taps of random games judged as the phone does.
const EXERCISE = `
import importlib, json, pkgutil, random, sys
sys.path.insert(0, "/engine")
import games.rules
for module in pkgutil.walk_packages(games.rules.__path__, "games.rules."):
    importlib.import_module(module.name)
from games.rules import simulate, table
for seed in range(12):
    generated = simulate.random_game(random.Random(seed))
    seats = {str(seat): role for seat, role in generated.seats.items()}
    events = generated.events
    for cut in range(0, len(events), max(1, len(events) // 8)):
        json.dumps(table.offline_tap(seats, None, generated.immune, events[:cut], events[cut]))
    json.dumps(table.offline_tap(seats, None, [], events, {"type": "undo"}))
    json.dumps(table.offline_tap(seats, None, [], events[:1], {"type": "speech", "seat": 99}))
    json.dumps(table.offline_tap(seats, None, [], [], {"type": "nonsense"}))
`;

// What the worker does before it imports games.rules (static/games/engine-worker.js).
const ENGINE_BYTECODE = `
import sys, zipfile
sys.pycache_prefix = "/pycache"
with zipfile.ZipFile(next(path for path in sys.path if path.endswith(".zip"))) as stdlib:
    stdlib.extractall("/", [name for name in stdlib.namelist() if name.startswith("pycache/")])
`;

/** games/rules (its packages too) into Pyodide's file system, as the engine's zip lays it out. */
function mountRules(pyodide) {
  pyodide.FS.mkdirTree("/engine/games/rules");
  pyodide.FS.writeFile("/engine/games/__init__.py", "");
  for (const entry of readdirSync(RULES, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".py")) continue;
    const path = relative(RULES, join(entry.parentPath ?? entry.path, entry.name));
    pyodide.FS.mkdirTree(dirname(`/engine/games/rules/${path}`));
    pyodide.FS.writeFile(`/engine/games/rules/${path}`, readFileSync(join(RULES, path)));
  }
}

const { loadPyodide } = await import(join(PYODIDE, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: PYODIDE + "/" });
mountRules(pyodide);
pyodide.runPython(EXERCISE);
pyodide.globals.set("also", pyodide.toPy(ALSO));
const kept = pyodide.runPython(`
import importlib._bootstrap_external as bootstrap, importlib.util, io, pathlib, sys, zipfile
STDLIB = "/lib/python314.zip"
used = {name for name, module in list(sys.modules.items()) if (getattr(module, "__file__", None) or "").startswith(STDLIB)}
def wanted(name):
    return name in used or any(name == root or name.startswith(root + ".") for root in also)
out = io.BytesIO()
kept = 0
with zipfile.ZipFile(STDLIB) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
    for info in source.infolist():
        if not info.filename.endswith(".py"):
            continue
        module = info.filename[:-3].replace("/", ".").removesuffix(".__init__")
        if not wanted(module):
            continue
        code = compile(source.read(info), info.filename, "exec", dont_inherit=True)
        # A bytecode file without its source: zipimport loads it as it is.
        target.writestr(info.filename + "c", bootstrap._code_to_timestamp_pyc(code, 0, 0))
        kept += 1
    # The engine's own modules as bytecode too, under pycache/ as sys.pycache_prefix lays
    # them out, checked by hash against their source: the worker imports the server's zip
    # (/engine) with sys.pycache_prefix = "/pycache" and these in it, so each module is
    # read from here while its source matches and compiled from the source when it does
    # not (a build older than the server's rules is slower, never wrong).
    sys.pycache_prefix = "/pycache"
    for path in sorted(pathlib.Path("/engine/games").rglob("*.py")):
        source = path.read_bytes()
        code = compile(source, str(path), "exec", dont_inherit=True)
        pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(source), checked=True)
        target.writestr(importlib.util.cache_from_source(str(path)).lstrip("/"), pyc)
    sys.pycache_prefix = None
with open("/tmp/engine_stdlib.zip", "wb") as file:
    file.write(out.getvalue())
kept
`);
writeFileSync(OUT, pyodide.FS.readFile("/tmp/engine_stdlib.zip"));

// The check: a fresh Pyodide on the new library alone starts and judges the same taps.
const checked = await loadPyodide({ indexURL: PYODIDE + "/", stdLibURL: OUT });
mountRules(checked);
checked.runPython(ENGINE_BYTECODE);
checked.runPython(EXERCISE);
const fresh = checked.runPython(`
import importlib.util, pathlib
stale = []
for path in pathlib.Path("/engine/games").rglob("*.py"):
    with open(importlib.util.cache_from_source(str(path)), "rb") as pyc:
        if pyc.read(16)[8:] != importlib.util.source_hash(path.read_bytes()):
            stale.append(str(path))
stale
`).toJs();
if (fresh.length) throw new Error(`the engine's bytecode does not match its source: ${fresh}`);
const size = readFileSync(OUT).length;
console.log(`${OUT}: ${kept} modules and the engine's as bytecode, ${(size / 1048576).toFixed(2)} MB; Pyodide starts on it and judges taps`);
