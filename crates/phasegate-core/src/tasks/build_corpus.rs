//! Validation outputs as the tools print them, each labelled with its tool
//! and the class [`super::classify_run`] must give it: the development half
//! of the table behind `build_decisions_misread_common_failures`, the cases
//! consulted while the rows of `build_table.rs` were written (the other
//! half, `build_held_out.rs`, was written before them and not consulted).
//! Compilers, type checkers, linters, test runners, bundlers, package
//! managers, databases and git, for JS/TS, Python, Rust, Go, C and SQL;
//! plus the network, timeout and resource failures that are nobody's code.
//! The outputs start at column 0 because they are verbatim; `⇥` stands for
//! a tab (Go, psql, ctest and Java stack traces print them). A case's tool
//! names its toolchain by its first word (`go test` is go's).
//!
//! Decisions a reader may question, recorded here so the table states them:
//! a module that is a path of the project (`./x`, `/abs`) is a code error
//! (VALIDATION_FAILED), not a package to install; npm's ERESOLVE peer
//! conflict and a permission error are the user's to decide (OTHER), and so
//! is a version that no registry has (npm's E404, Maven's absent artifact,
//! Composer's unmatched constraint, pip's ResolutionImpossible); a bare
//! `Killed` is the kernel's OOM killer (RESOURCE); a `SyntaxError` thrown by
//! `JSON.parse` inside a test is a failed test, not a syntax error; a Java,
//! Kotlin or Swift import names its package as written, and a Haskell
//! module names none (the module does not say its package); a system
//! library a build needs (`curl/curl.h`, `pg_config`) is a missing
//! dependency without a name. A case carries the command that ran only
//! when the case is about the rule for output no row matches.

use super::ErrorType::{self, Conflict, Network, Other, Resource, SyntaxError, Timeout, ValidationFailed};

pub(super) struct Case {
    pub tool: &'static str,
    /// The validation command, for the cases of the rule for output no row
    /// matches; `None` for the others, which test the rows alone.
    pub command: Option<&'static str>,
    pub want: ErrorType,
    pub output: String,
}

impl Case {
    /// The toolchain: the tool's first word (`go test` → `go`).
    pub fn toolchain(&self) -> &'static str {
        self.tool.split_whitespace().next().unwrap_or(self.tool)
    }
}

pub(super) fn case(tool: &'static str, want: ErrorType, output: &str) -> Case {
    run(tool, None, want, output)
}

/// A case whose command is known.
pub(super) fn run(tool: &'static str, command: Option<&'static str>, want: ErrorType, output: &str) -> Case {
    let output = output.strip_prefix('\n').unwrap_or(output).replace('⇥', "\t");
    Case { tool, command, want, output }
}

pub(super) fn missing(package: &str) -> ErrorType {
    ErrorType::MissingDependency { package: Some(package.to_owned()) }
}

pub(super) fn missing_unnamed() -> ErrorType {
    ErrorType::MissingDependency { package: None }
}

/// The cases consulted while writing the rows.
pub(super) fn development() -> Vec<Case> {
    let mut all = Vec::new();
    all.extend(typescript());
    all.extend(javascript());
    all.extend(package_managers());
    all.extend(bundlers());
    all.extend(python());
    all.extend(rust());
    all.extend(go());
    all.extend(c());
    all.extend(sql());
    all.extend(git());
    all.extend(machine());
    all.extend(toolchains());
    all
}

fn typescript() -> Vec<Case> {
    vec![
        case(
            "tsc",
            SyntaxError,
            r#"
src/api/users.ts(14,27): error TS1005: ';' expected.
src/api/users.ts(15,1): error TS1128: Declaration or statement expected.
"#,
        ),
        case(
            "tsc",
            SyntaxError,
            r#"
src/routes/orders.ts:22:38 - error TS1005: ',' expected.

22     const lines = items.map((i) => i.price i.qty);
                                            ~

Found 1 error in src/routes/orders.ts:22

"#,
        ),
        case(
            "tsc",
            SyntaxError,
            "\u{1b}[96msrc/api/users.ts\u{1b}[0m:\u{1b}[93m14\u{1b}[0m:\u{1b}[93m27\u{1b}[0m - \u{1b}[91merror\u{1b}[0m\u{1b}[90m TS1005: \u{1b}[0m';' expected.\n\n\u{1b}[7m14\u{1b}[0m     return res.json(users)\n\u{1b}[7m  \u{1b}[0m \u{1b}[91m                          ~\u{1b}[0m\n\n\nFound 1 error in src/api/users.ts\u{1b}[90m:14\u{1b}[0m\n\n",
        ),
        case(
            "tsc",
            ValidationFailed,
            r#"
src/components/Cart.tsx(18,7): error TS2322: Type 'string' is not assignable to type 'number'.
src/components/Cart.tsx(31,22): error TS2345: Argument of type 'Item | undefined' is not assignable to parameter of type 'Item'.
  Type 'undefined' is not assignable to type 'Item'.
"#,
        ),
        case(
            "tsc",
            ValidationFailed,
            r#"
src/lib/api.ts:9:20 - error TS2339: Property 'json' does not exist on type 'string'.

9   const body = res.json();
                     ~~~~

src/lib/api.ts:14:3 - error TS2304: Cannot find name 'logger'.

14   logger.info("fetched");
     ~~~~~~


Found 2 errors in the same file, starting at: src/lib/api.ts:9

"#,
        ),
        case(
            "tsc",
            missing("date-fns"),
            r#"
src/utils/dates.ts(1,24): error TS2307: Cannot find module 'date-fns' or its corresponding type declarations.
src/utils/dates.ts(8,10): error TS7006: Parameter 'd' implicitly has an 'any' type.
"#,
        ),
        case(
            "tsc",
            missing("@types/express"),
            r#"
src/server.ts(3,21): error TS7016: Could not find a declaration file for module 'express'. '/home/dev/shop/node_modules/express/index.js' implicitly has an 'any' type.
  Try `npm i --save-dev @types/express` if it exists or add a new declaration (.d.ts) file containing `declare module 'express';`
"#,
        ),
        case(
            "tsc",
            ValidationFailed,
            r#"
src/App.tsx(3,20): error TS2307: Cannot find module './components/Header' or its corresponding type declarations.
"#,
        ),
        case(
            "tsc",
            Conflict,
            r#"
src/api/users.ts(12,1): error TS1185: Merge conflict marker encountered.
src/api/users.ts(14,1): error TS1185: Merge conflict marker encountered.
src/api/users.ts(16,1): error TS1185: Merge conflict marker encountered.
"#,
        ),
        case(
            "eslint",
            ValidationFailed,
            r#"

/home/dev/shop/src/api/users.ts
  12:7   error    'result' is assigned a value but never used  @typescript-eslint/no-unused-vars
  27:15  error    Unexpected any. Specify a different type     @typescript-eslint/no-explicit-any
  40:3   warning  Unexpected console statement                 no-console

✖ 3 problems (2 errors, 1 warning)

"#,
        ),
        case(
            "eslint",
            ValidationFailed,
            r#"

/home/dev/shop/src/components/OrderList.jsx
   4:10  error  'useEffect' is defined but never used                                     no-unused-vars
  18:6   error  React Hook useMemo has a missing dependency: 'orders'. Either include it or remove the dependency array  react-hooks/exhaustive-deps
  22:9   error  Expected '===' and instead saw '=='                                       eqeqeq

✖ 3 problems (3 errors, 0 warnings)
  1 error and 0 warnings potentially fixable with the `--fix` option.

"#,
        ),
        case(
            "eslint",
            SyntaxError,
            r#"

/home/dev/shop/src/index.js
  3:10  error  Parsing error: Unexpected token }

✖ 1 problem (1 error, 0 warnings)

"#,
        ),
        case(
            "prettier",
            ValidationFailed,
            r#"
Checking formatting...
[warn] src/api/users.ts
[warn] src/components/Cart.tsx
[warn] Code style issues found in 2 files. Run Prettier with --write to fix.
"#,
        ),
        case(
            "prettier",
            SyntaxError,
            r#"
Checking formatting...
[error] src/api/users.ts: SyntaxError: ',' expected. (22:41)
[error]   20 |   const items = await db.items.findMany();
[error]   21 |   const lines = items.map((i) => ({
[error] > 22 |     total: i.price * i.qty
[error]      |                          ^
[error]   23 |     name: i.name,
[error]   24 |   }));
Error occurred when checking code style in the above file.
"#,
        ),
    ]
}

fn javascript() -> Vec<Case> {
    vec![
        case(
            "jest",
            ValidationFailed,
            r#"
FAIL src/cart.test.ts
  Cart
    ✓ adds an item (3 ms)
    ✕ applies the discount (5 ms)

  ● Cart › applies the discount

    expect(received).toBe(expected) // Object.is equality

    Expected: 81
    Received: 90

      12 |     const cart = new Cart([{ price: 100 }]);
      13 |     cart.apply("SAVE10");
    > 14 |     expect(cart.total()).toBe(81);
         |                          ^
      15 |   });
      16 | });

      at Object.<anonymous> (src/cart.test.ts:14:26)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Snapshots:   0 total
Time:        1.284 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            ValidationFailed,
            r#"
FAIL src/parser/parser.test.ts
  ● parser › reports a syntax error on a missing brace

    expect(received).toThrow(expected)

    Expected substring: "Syntax error at line 3: unexpected end of input"
    Received message:   "Unexpected token at line 3"

          19 |   it("reports a syntax error on a missing brace", () => {
        > 20 |     expect(() => parse("{ a: 1")).toThrow("Syntax error at line 3: unexpected end of input");
             |                                   ^
          21 |   });

      at Object.<anonymous> (src/parser/parser.test.ts:20:35)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 11 passed, 12 total
Snapshots:   0 total
Time:        0.912 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            missing("supertest"),
            r#"
FAIL tests/api.test.ts
  ● Test suite failed to run

    Cannot find module 'supertest' from 'tests/api.test.ts'

    > 1 | import request from "supertest";
        | ^
      2 | import { app } from "../src/app";
      3 |
      4 | describe("GET /users", () => {

      at Resolver._throwModNotFoundError (node_modules/jest-resolve/build/resolver.js:427:11)
      at Object.<anonymous> (tests/api.test.ts:1:1)

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        0.621 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            Timeout,
            r#"
FAIL tests/sync.test.ts (6.112 s)
  ● sync › pulls the remote orders

    thrown: "Exceeded timeout of 5000 ms for a test.
    Add a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout."

       8 |
       9 | describe("sync", () => {
    > 10 |   it("pulls the remote orders", async () => {
         |   ^
      11 |     await sync.pull();
      12 |     expect(await db.orders.count()).toBe(3);
      13 |   });

      at it (tests/sync.test.ts:10:3)
      at Object.describe (tests/sync.test.ts:9:1)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        6.351 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            SyntaxError,
            r#"
FAIL src/utils/format.test.ts
  ● Test suite failed to run

    src/utils/format.ts:12:5 - error TS1005: ',' expected.

    12     return `${value}`
           ~~~~~~

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        2.034 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            ValidationFailed,
            r#"
FAIL src/client.test.ts
  ● client › parses the profile

    SyntaxError: Unexpected token '<', "<!DOCTYPE "... is not valid JSON
        at JSON.parse (<anonymous>)

      14 |     const res = await fetch(`${base}/profile`);
      15 |     const text = await res.text();
    > 16 |     const profile = JSON.parse(text);
         |                          ^
      17 |     expect(profile.name).toBe("Ada");

      at Object.<anonymous> (src/client.test.ts:16:26)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 3 passed, 4 total
Snapshots:   0 total
Time:        1.02 s
Ran all test suites.
"#,
        ),
        case(
            "jest",
            Network,
            r#"
FAIL tests/users.int.test.ts
  ● users repository › creates a user

    connect ECONNREFUSED 127.0.0.1:5432



Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
Snapshots:   0 total
Time:        0.873 s
Ran all test suites.
"#,
        ),
        case(
            "vitest",
            ValidationFailed,
            r#"
 FAIL  src/cart.test.ts > cart > applies the discount
AssertionError: expected 90 to be 81 // Object.is equality

- Expected
+ Received

- 81
+ 90

 ❯ src/cart.test.ts:14:28
     12|     const cart = new Cart([{ price: 100 }]);
     13|     cart.apply("SAVE10");
     14|     expect(cart.total()).toBe(81);
       |                            ^
     15|   });
     16| });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed | 4 passed (5)
   Start at  10:42:17
   Duration  412ms (transform 61ms, setup 0ms, collect 58ms, tests 9ms, environment 0ms, prepare 88ms)

"#,
        ),
        case(
            "vitest",
            Timeout,
            r#"
 FAIL  src/sync.test.ts > sync > pulls the remote orders
Error: Test timed out in 5000ms.
If this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".
 ❯ src/sync.test.ts:10:3

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed (1)
   Start at  09:14:02
   Duration  5.42s (transform 48ms, setup 0ms, collect 61ms, tests 5.01s, environment 0ms, prepare 71ms)

"#,
        ),
        case(
            "vitest",
            missing("msw"),
            r#"
 FAIL  src/api.test.ts [ src/api.test.ts ]
Error: Failed to resolve import "msw/node" from "src/setupTests.ts". Does the file exist?
 ❯ TransformPluginContext._formatError node_modules/vite/dist/node/chunks/dep-BK3b2jBa.js:49255:41

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  no tests
   Start at  11:02:45
   Duration  389ms (transform 22ms, setup 0ms, collect 0ms, tests 0ms, environment 0ms, prepare 64ms)

"#,
        ),
        case(
            "mocha",
            ValidationFailed,
            r#"


  Orders API
    ✔ lists orders
    1) creates an order


  1 passing (48ms)
  1 failing

  1) Orders API
       creates an order:

      AssertionError: expected 500 to equal 201
      + expected - actual

      -500
      +201

      at Context.<anonymous> (test/orders.spec.js:27:31)
      at process.processImmediate (node:internal/timers:476:21)



"#,
        ),
        case(
            "mocha",
            Timeout,
            r#"


  Sync worker
    1) "before all" hook for "pulls orders"


  0 passing (2s)
  1 failing

  1) Sync worker
       "before all" hook for "pulls orders":
     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves. (/home/dev/shop/test/sync.spec.js)
      at listOnTimeout (node:internal/timers:573:17)
      at process.processTimers (node:internal/timers:514:7)



"#,
        ),
        case(
            "playwright",
            Timeout,
            r#"

Running 6 tests using 2 workers

  1) [chromium] › checkout.spec.ts:12:5 › checkout › pays with a card ──────────────────────────────

    Test timeout of 30000ms exceeded.

    Error: locator.click: Test timeout of 30000ms exceeded.
    Call log:
      - waiting for getByRole('button', { name: 'Pay' })


      14 |     await page.goto('/checkout');
      15 |     await page.fill('#card', '4242 4242 4242 4242');
    > 16 |     await page.getByRole('button', { name: 'Pay' }).click();
         |                                                      ^
      17 |     await expect(page.getByText('Thank you')).toBeVisible();

        at /home/dev/shop/e2e/checkout.spec.ts:16:54

  1 failed
    [chromium] › checkout.spec.ts:12:5 › checkout › pays with a card ───────────────────────────────
  5 passed (41.2s)
"#,
        ),
        case(
            "node",
            missing("dotenv"),
            r#"
node:internal/modules/cjs/loader:1147
  throw err;
  ^

Error: Cannot find module 'dotenv'
Require stack:
- /home/dev/shop/src/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1144:15)
    at Module._load (node:internal/modules/cjs/loader:985:27)
    at Module.require (node:internal/modules/cjs/loader:1235:19)
    at require (node:internal/modules/helpers:176:18)
    at Object.<anonymous> (/home/dev/shop/src/index.js:1:1)
    at Module._compile (node:internal/modules/cjs/loader:1376:14) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/home/dev/shop/src/index.js' ]
}

Node.js v20.11.0
"#,
        ),
        case(
            "node",
            missing("express"),
            r#"
node:internal/errors:496
    ErrorCaptureStackTrace(err);
    ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /home/dev/shop/src/server.js
    at new NodeError (node:internal/errors:405:5)
    at packageResolve (node:internal/modules/esm/resolve:916:9)
    at moduleResolve (node:internal/modules/esm/resolve:973:20)
    at defaultResolve (node:internal/modules/esm/resolve:1206:11)
    at ModuleLoader.resolve (node:internal/modules/esm/loader:404:12) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v18.19.0
"#,
        ),
        case(
            "node",
            ValidationFailed,
            r#"
node:internal/modules/cjs/loader:1147
  throw err;
  ^

Error: Cannot find module '/home/dev/shop/dist/server.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1144:15)
    at Module._load (node:internal/modules/cjs/loader:985:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:135:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.11.0
"#,
        ),
        case(
            "node",
            SyntaxError,
            r#"
/home/dev/shop/src/index.js:14
  const app = express(;
                      ^

SyntaxError: Unexpected token ';'
    at internalCompileFunction (node:internal/vm:76:18)
    at wrapSafe (node:internal/modules/cjs/loader:1283:20)
    at Module._compile (node:internal/modules/cjs/loader:1328:27)
    at Module._extensions..js (node:internal/modules/cjs/loader:1422:10)
    at Module.load (node:internal/modules/cjs/loader:1203:32)

Node.js v20.11.0
"#,
        ),
        case(
            "node",
            Network,
            r#"
node:internal/process/promises:289
            triggerUncaughtException(err, true /* fromPromise */);
            ^

Error: getaddrinfo ENOTFOUND api.payments.example
    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:118:26) {
  errno: -3008,
  code: 'ENOTFOUND',
  syscall: 'getaddrinfo',
  hostname: 'api.payments.example'
}

Node.js v20.11.0
"#,
        ),
        case(
            "node",
            Resource,
            r#"

<--- Last few GCs --->

[41233:0x5d3c7a0]    61234 ms: Mark-Compact 4045.1 (4136.6) -> 4031.6 (4139.4) MB, 2134.52 / 0.00 ms  (average mu = 0.129, current mu = 0.041) allocation failure; scavenge might not succeed


<--- JS stacktrace --->

FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb85bc0 node::Abort() [node]
 2: 0xa94834  [node]
 3: 0xd66d10 v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, bool) [node]
 4: 0xd670b7 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, bool) [node]
Aborted (core dumped)
"#,
        ),
        case(
            "node",
            Resource,
            r#"
node:internal/fs/watchers:247
    const error = new UVException({
                  ^

Error: EMFILE: too many open files, watch
    at FSWatcher.<computed> (node:internal/fs/watchers:247:19)
    at Object.watch (node:fs:2343:36)
    at createFsWatchInstance (/home/dev/shop/node_modules/chokidar/lib/nodefs-handler.js:119:15) {
  errno: -24,
  syscall: 'watch',
  code: 'EMFILE',
  filename: null
}

Node.js v20.11.0
"#,
        ),
    ]
}

fn package_managers() -> Vec<Case> {
    vec![
        case(
            "npm",
            Network,
            r#"
npm ERR! code ENOTFOUND
npm ERR! syscall getaddrinfo
npm ERR! errno ENOTFOUND
npm ERR! network request to https://registry.npmjs.org/zod failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org
npm ERR! network This is a problem related to network connectivity.
npm ERR! network In most cases you are behind a proxy or have bad network settings.
npm ERR! network
npm ERR! network If you are behind a proxy, please make sure that the
npm ERR! network 'proxy' config is set properly.  See: 'npm help config'

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-03-01T10_12_44_101Z-debug-0.log
"#,
        ),
        case(
            "npm",
            Network,
            r#"
npm error code ETIMEDOUT
npm error errno ETIMEDOUT
npm error network request to https://registry.npmjs.org/express failed, reason: connect ETIMEDOUT 104.16.3.35:443
npm error network This is a problem related to network connectivity.
npm error network In most cases you are behind a proxy or have bad network settings.
npm error network
npm error network If you are behind a proxy, please make sure that the
npm error network 'proxy' config is set properly.  See: 'npm help config'
npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2024-11-02T09_12_44_101Z-debug-0.log
"#,
        ),
        case(
            "npm",
            Other,
            r#"
npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR!
npm ERR! While resolving: shop@0.1.0
npm ERR! Found: react@18.2.0
npm ERR! node_modules/react
npm ERR!   react@"^18.2.0" from the root project
npm ERR!
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.5 || ^17.0.0" from react-beautiful-dnd@13.1.1
npm ERR! node_modules/react-beautiful-dnd
npm ERR!   react-beautiful-dnd@"^13.1.1" from the root project
npm ERR!
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
npm ERR!
npm ERR!
npm ERR! For a full report see:
npm ERR! /home/dev/.npm/_logs/2024-03-01T10_20_31_402Z-eresolve-report.txt

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-03-01T10_20_31_402Z-debug-0.log
"#,
        ),
        case(
            "npm",
            Resource,
            r#"
npm ERR! code ENOSPC
npm ERR! syscall write
npm ERR! errno -28
npm ERR! nospc ENOSPC: no space left on device, write
npm ERR! nospc There appears to be insufficient space on your system to finish.
npm ERR! nospc Clear up some disk space and try again.

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-03-01T11_02_10_845Z-debug-0.log
"#,
        ),
        case(
            "npm",
            Other,
            r#"
npm ERR! code EACCES
npm ERR! syscall mkdir
npm ERR! path /usr/local/lib/node_modules/typescript
npm ERR! errno -13
npm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'
npm ERR!  [Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'] {
npm ERR!   errno: -13,
npm ERR!   code: 'EACCES',
npm ERR!   syscall: 'mkdir',
npm ERR!   path: '/usr/local/lib/node_modules/typescript'
npm ERR! }
npm ERR!
npm ERR! The operation was rejected by your operating system.
npm ERR! It is likely you do not have the permissions to access this file as the current user
npm ERR!
npm ERR! If you believe this might be a permissions issue, please double-check the
npm ERR! permissions of the file and its containing directories, or try running
npm ERR! the command again as root/Administrator.

npm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2024-03-01T11_15_02_311Z-debug-0.log
"#,
        ),
        case(
            "pnpm",
            Network,
            r#"
 WARN  GET https://registry.npmjs.org/zod error (ENOTFOUND). Will retry in 10 seconds. 2 retries left.
 WARN  GET https://registry.npmjs.org/zod error (ENOTFOUND). Will retry in 1 minute. 1 retries left.
 ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/zod: request to https://registry.npmjs.org/zod failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org
"#,
        ),
        case(
            "pnpm",
            ValidationFailed,
            r#"

> web@0.1.0 test /home/dev/shop
> vitest run


 RUN  v1.3.1 /home/dev/shop

 ✓ src/cart.test.ts  (5 tests) 6ms
 ❯ src/price.test.ts  (3 tests | 1 failed) 7ms
   ❯ src/price.test.ts > price > rounds to cents
     → expected 10.005 to be 10.01 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/price.test.ts > price > rounds to cents
AssertionError: expected 10.005 to be 10.01 // Object.is equality

- Expected
+ Received

- 10.01
+ 10.005

 ❯ src/price.test.ts:9:31

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 7 passed (8)
   Start at  14:03:51
   Duration  398ms (transform 51ms, setup 0ms, collect 47ms, tests 13ms, environment 0ms, prepare 142ms)

 ELIFECYCLE  Test failed. See above for more details.
"#,
        ),
        case(
            "yarn",
            Network,
            r#"
yarn install v1.22.19
[1/4] Resolving packages...
[2/4] Fetching packages...
info There appears to be trouble with your network connection. Retrying...
info There appears to be trouble with your network connection. Retrying...
error An unexpected error occurred: "https://registry.yarnpkg.com/zod/-/zod-3.22.4.tgz: getaddrinfo EAI_AGAIN registry.yarnpkg.com".
info If you think this is a bug, please open a bug report with the information provided in "/home/dev/shop/yarn-error.log".
info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command.
"#,
        ),
        case(
            "yarn",
            ValidationFailed,
            r#"
yarn run v1.22.19
$ tsc --noEmit
src/store/cart.ts(27,5): error TS2322: Type 'undefined' is not assignable to type 'Cart'.
error Command failed with exit code 2.
info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.
"#,
        ),
        case(
            "pip",
            Network,
            r#"
Collecting requests==2.31.0
  Downloading requests-2.31.0-py3-none-any.whl.metadata (4.6 kB)
Collecting urllib3<3,>=1.21.1 (from requests==2.31.0)
  Downloading urllib3-2.2.1-py3-none-any.whl.metadata (6.4 kB)
  Downloading urllib3-2.2.1-py3-none-any.whl (121 kB)
     ━━━━━━━━━━╺━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 30.7/121.1 kB 1.2 kB/s eta 0:01:15
ERROR: Exception:
Traceback (most recent call last):
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 438, in _error_catcher
    yield
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 561, in read
    data = self._fp_read(amt) if not fp_closed else b""
  File "/usr/lib/python3.11/ssl.py", line 1134, in read
    return self._sslobj.read(len, buffer)
TimeoutError: The read operation timed out

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/pip/_internal/cli/base_command.py", line 180, in exc_logging_wrapper
    status = run_func(*args)
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 443, in _error_catcher
    raise ReadTimeoutError(self._pool, None, "Read timed out.")
pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.
"#,
        ),
        case(
            "pip",
            Network,
            r#"
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3c2a1b5d50>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/httpx/
WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3c2a1b6090>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/httpx/
ERROR: Could not find a version that satisfies the requirement httpx (from versions: none)
ERROR: No matching distribution found for httpx
"#,
        ),
    ]
}

fn bundlers() -> Vec<Case> {
    vec![
        case(
            "vite",
            missing("axios"),
            r#"
vite v5.1.4 building for production...
✓ 34 modules transformed.
x Build failed in 412ms
error during build:
Error: [vite]: Rollup failed to resolve import "axios" from "/home/dev/shop/src/api/client.ts".
This is most likely unintended because it can break your application at runtime.
If you do want to externalize this module explicitly add it to
`build.rollupOptions.external`
    at viteWarn (file:///home/dev/shop/node_modules/vite/dist/node/chunks/dep-jvB8WLp9.js:67190:27)
    at onRollupWarning (file:///home/dev/shop/node_modules/vite/dist/node/chunks/dep-jvB8WLp9.js:67218:9)
"#,
        ),
        case(
            "vite",
            missing("@tanstack/react-query"),
            r#"
9:41:07 AM [vite] Internal server error: Failed to resolve import "@tanstack/react-query" from "src/main.tsx". Does the file exist?
  Plugin: vite:import-analysis
  File: /home/dev/shop/src/main.tsx:4:54
  2  |  import ReactDOM from "react-dom/client";
  3  |  import App from "./App.tsx";
  4  |  import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
     |                                                    ^
  5  |  import "./index.css";
"#,
        ),
        case(
            "vite",
            ValidationFailed,
            r#"
10:02:13 AM [vite] Internal server error: Failed to resolve import "./components/Header" from "src/App.tsx". Does the file exist?
  Plugin: vite:import-analysis
  File: /home/dev/shop/src/App.tsx:2:19
  1  |  import { useState } from "react";
  2  |  import Header from "./components/Header";
     |                      ^
  3  |
"#,
        ),
        case(
            "webpack",
            missing("lodash"),
            r#"
asset main.js 1.21 KiB [emitted] (name: main)
./src/index.js 312 bytes [built] [code generated]

ERROR in ./src/index.js 3:0-28
Module not found: Error: Can't resolve 'lodash' in '/home/dev/shop/src'
resolve 'lodash' in '/home/dev/shop/src'
  Parsed request is a module
  using description file: /home/dev/shop/package.json (relative path: ./src)
    Field 'browser' doesn't contain a valid alias configuration
    resolve as module
      /home/dev/shop/src/node_modules doesn't exist or is not a directory
      looking for modules in /home/dev/shop/node_modules
        /home/dev/shop/node_modules/lodash doesn't exist

webpack 5.90.3 compiled with 1 error in 187 ms
"#,
        ),
        case(
            "webpack",
            SyntaxError,
            r#"
ERROR in ./src/App.jsx
Module build failed (from ./node_modules/babel-loader/lib/index.js):
SyntaxError: /home/dev/shop/src/App.jsx: Unexpected token, expected "," (12:4)

  10 |       <h1>{title}</h1>
  11 |       <p>{subtitle}</p>
> 12 |     </div>
     |     ^
  13 |   );
  14 | }
  15 |
    at constructor (/home/dev/shop/node_modules/@babel/parser/lib/index.js:356:19)

webpack 5.90.3 compiled with 1 error in 642 ms
"#,
        ),
        case(
            "esbuild",
            missing("react-router-dom"),
            r#"
✘ [ERROR] Could not resolve "react-router-dom"

    src/App.tsx:2:30:
      2 │ import { BrowserRouter } from "react-router-dom";
        ╵                               ~~~~~~~~~~~~~~~~~~

  You can mark the path "react-router-dom" as external to exclude it from the bundle, which will remove this error and leave the unresolved path in the bundle.

1 error
"#,
        ),
        case(
            "esbuild",
            SyntaxError,
            r#"
✘ [ERROR] Expected ";" but found "total"

    src/cart.ts:8:17:
      8 │   let subtotal = 0 total = items.length;
        │                  ~~~~~
        ╵                  ;

1 error
"#,
        ),
    ]
}

fn python() -> Vec<Case> {
    vec![
        case(
            "python",
            SyntaxError,
            r#"
  File "/home/dev/shop/app/models.py", line 12
    def save(self)
                  ^
SyntaxError: expected ':'
"#,
        ),
        case(
            "python",
            SyntaxError,
            r#"
  File "/home/dev/shop/app/views.py", line 8
    return render(request, "orders.html", {"orders": orders})
    ^^^^^^
IndentationError: expected an indented block after function definition on line 7
"#,
        ),
        case(
            "python",
            missing("dotenv"),
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/manage.py", line 3, in <module>
    from dotenv import load_dotenv
ModuleNotFoundError: No module named 'dotenv'
"#,
        ),
        case(
            "python",
            ValidationFailed,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/manage.py", line 5, in <module>
    from app.reports import monthly
  File "/home/dev/shop/app/reports.py", line 2, in <module>
    from app.utils import parse_date
ImportError: cannot import name 'parse_date' from 'app.utils' (/home/dev/shop/app/utils.py)
"#,
        ),
        case(
            "python",
            Network,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/scripts/smoke.py", line 9, in <module>
    r = requests.get("http://localhost:8000/api/health", timeout=5)
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/requests/api.py", line 73, in get
    return request("get", url, params=params, **kwargs)
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/requests/adapters.py", line 519, in send
    raise ConnectionError(e, request=request)
requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /api/health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f2b8c1d4e50>: Failed to establish a new connection: [Errno 111] Connection refused'))
"#,
        ),
        case(
            "pytest",
            ValidationFailed,
            r#"
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/dev/shop
collected 12 items

tests/test_orders.py ..F.........                                        [100%]

=================================== FAILURES ===================================
___________________________ test_total_includes_tax ____________________________

    def test_total_includes_tax():
        order = Order(items=[Item(price=100)])
>       assert order.total() == 108
E       assert 100 == 108
E        +  where 100 = <bound method Order.total of <app.orders.Order object at 0x7f9a3c2b1d90>>()
E        +    where <bound method Order.total of <app.orders.Order object at 0x7f9a3c2b1d90>> = <app.orders.Order object at 0x7f9a3c2b1d90>.total

tests/test_orders.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_orders.py::test_total_includes_tax - assert 100 == 108
========================= 1 failed, 11 passed in 0.21s =========================
"#,
        ),
        case(
            "pytest",
            ValidationFailed,
            r#"
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/dev/shop
collected 7 items

tests/test_query_parser.py ...F...                                       [100%]

=================================== FAILURES ===================================
_____________________________ test_reports_position _____________________________

    def test_reports_position():
        err = parse_query("SELECT FROM").error
>       assert err.message == "unexpected token at line 1"
E       AssertionError: assert 'invalid syntax at line 1' == 'unexpected token at line 1'
E
E         - unexpected token at line 1
E         + invalid syntax at line 1

tests/test_query_parser.py:31: AssertionError
=========================== short test summary info ============================
FAILED tests/test_query_parser.py::test_reports_position - AssertionError: assert 'invalid syntax at line 1' == 'unexpected token at line 1'
========================= 1 failed, 6 passed in 0.09s ==========================
"#,
        ),
        case(
            "pytest",
            SyntaxError,
            r#"
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/dev/shop
collected 0 items / 1 error

==================================== ERRORS ====================================
__________________________ ERROR collecting tests/test_parser.py __________________________
/home/dev/shop/.venv/lib/python3.11/site-packages/_pytest/python.py:520: in importtestmodule
    mod = import_path(
/home/dev/shop/.venv/lib/python3.11/site-packages/_pytest/pathlib.py:584: in import_path
    importlib.import_module(module_name)
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
E     File "/home/dev/shop/tests/test_parser.py", line 9
E       def test_empty()
E                       ^
E   SyntaxError: expected ':'
=========================== short test summary info ============================
ERROR tests/test_parser.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.08s ===============================
"#,
        ),
        case(
            "pytest",
            missing("httpx"),
            r#"
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/dev/shop
collected 0 items / 1 error

==================================== ERRORS ====================================
______________________ ERROR collecting tests/test_api.py ______________________
ImportError while importing test module '/home/dev/shop/tests/test_api.py'.
Hint: make sure your test modules/packages have valid Python names.
Traceback:
/usr/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_api.py:3: in <module>
    import httpx
E   ModuleNotFoundError: No module named 'httpx'
=========================== short test summary info ============================
ERROR tests/test_api.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.11s ===============================
"#,
        ),
        case(
            "pytest",
            Timeout,
            r#"
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/dev/shop
plugins: timeout-2.2.0
timeout: 5.0s
timeout method: signal
timeout func_only: False
collected 4 items

tests/test_sync.py ...F                                                  [100%]

=================================== FAILURES ===================================
________________________________ test_full_sync ________________________________

    def test_full_sync():
>       sync.pull(all=True)

tests/test_sync.py:31:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

    def pull(all=False):
        while not done():
>           time.sleep(backoff)
E           Failed: Timeout >5.0s

app/sync.py:48: Failed
=========================== short test summary info ============================
FAILED tests/test_sync.py::test_full_sync - Failed: Timeout >5.0s
========================= 1 failed, 3 passed in 5.34s ==========================
"#,
        ),
        case(
            "mypy",
            ValidationFailed,
            r#"
app/services/users.py:42: error: Argument 1 to "get_user" has incompatible type "str"; expected "int"  [arg-type]
app/services/users.py:57: error: Item "None" of "User | None" has no attribute "email"  [union-attr]
Found 2 errors in 1 file (checked 18 source files)
"#,
        ),
        case(
            "mypy",
            SyntaxError,
            r#"
app/models.py:12: error: invalid syntax  [syntax]
Found 1 error in 1 file (errors prevented further checking)
"#,
        ),
        case(
            "ruff",
            ValidationFailed,
            r#"
app/views.py:3:8: F401 [*] `os` imported but unused
app/views.py:21:5: E722 Do not use bare `except`
app/services/users.py:14:89: E501 Line too long (104 > 88)
Found 3 errors.
[*] 1 fixable with the `--fix` option.
"#,
        ),
    ]
}

fn rust() -> Vec<Case> {
    vec![
        case(
            "rustc",
            SyntaxError,
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error: expected `;`, found `let`
 --> src/main.rs:4:18
  |
4 |     let x = 5 + 1
  |                  ^ help: add `;` here
5 |     let y = x * 2;
  |     --- unexpected token

error: could not compile `shop` (bin "shop") due to 1 previous error
"#,
        ),
        case(
            "rustc",
            SyntaxError,
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error: this file contains an unclosed delimiter
  --> src/parser.rs:48:3
   |
12 | impl Parser {
   |             - unclosed delimiter
...
31 |     fn next(&mut self) -> Option<Token> {
   |                                         - this delimiter might not be properly closed...
...
40 | }
   | - ...as it matches this but it has different indentation
...
48 | }
   |  ^

error: could not compile `shop` (lib) due to 1 previous error
"#,
        ),
        case(
            "rustc",
            ValidationFailed,
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error[E0308]: mismatched types
  --> src/cart.rs:12:5
   |
11 | pub fn total(items: &[Item]) -> u32 {
   |                                 --- expected `u32` because of return type
12 |     items.iter().map(|i| i.price).sum::<u64>()
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ expected `u32`, found `u64`
   |
help: you can convert a `u64` to a `u32` and panic if the converted value doesn't fit
   |
12 |     items.iter().map(|i| i.price).sum::<u64>().try_into().unwrap()
   |                                               ++++++++++++++++++++

For more information about this error, try `rustc --explain E0308`.
error: could not compile `shop` (lib) due to 1 previous error
"#,
        ),
        case(
            "rustc",
            missing("sha2"),
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error[E0432]: unresolved import `sha2`
 --> src/auth/token.rs:3:5
  |
3 | use sha2::{Digest, Sha256};
  |     ^^^^ use of unresolved module or unlinked crate `sha2`
  |
  = help: if you wanted to use a crate named `sha2`, use `cargo add sha2` to add it to your `Cargo.toml`

For more information about this error, try `rustc --explain E0432`.
error: could not compile `shop` (lib) due to 1 previous error
"#,
        ),
        case(
            "rustc",
            missing("tokio"),
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error[E0433]: failed to resolve: use of undeclared crate or module `tokio`
 --> src/main.rs:5:3
  |
5 | #[tokio::main]
  |   ^^^^^ use of undeclared crate or module `tokio`

error[E0752]: `main` function is not allowed to be `async`
 --> src/main.rs:6:1
  |
6 | async fn main() {
  | ^^^^^^^^^^^^^^^ `main` function is not allowed to be `async`

Some errors have detailed explanations: E0433, E0752.
For more information about an error, try `rustc --explain E0433`.
error: could not compile `shop` (bin "shop") due to 2 previous errors
"#,
        ),
        case(
            "rustc",
            ValidationFailed,
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
error[E0432]: unresolved import `crate::store::OrderStore`
 --> src/api/orders.rs:3:5
  |
3 | use crate::store::OrderStore;
  |     ^^^^^^^^^^^^^^^^^^^^^^^^ no `OrderStore` in `store`

For more information about this error, try `rustc --explain E0432`.
error: could not compile `shop` (lib) due to 1 previous error
"#,
        ),
        case(
            "cargo test",
            ValidationFailed,
            r#"
   Compiling shop v0.1.0 (/home/dev/shop)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.92s
     Running unittests src/lib.rs (target/debug/deps/shop-3f2a1c9d8e7b6a50)

running 3 tests
test parser::tests::parses_empty ... ok
test parser::tests::parses_number ... ok
test parser::tests::rejects_garbage ... FAILED

failures:

---- parser::tests::rejects_garbage stdout ----
thread 'parser::tests::rejects_garbage' panicked at src/parser.rs:42:9:
assertion `left == right` failed
  left: Ok(0)
 right: Err(ParseError::Syntax)
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    parser::tests::rejects_garbage

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `--lib`
"#,
        ),
        case(
            "clippy",
            ValidationFailed,
            r#"
    Checking shop v0.1.0 (/home/dev/shop)
error: unneeded `return` statement
 --> src/cart.rs:5:5
  |
5 |     return subtotal + tax;
  |     ^^^^^^^^^^^^^^^^^^^^^
  |
  = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return
  = note: `-D clippy::needless-return` implied by `-D warnings`
  = help: to override `-D warnings` add `#[allow(clippy::needless_return)]`
help: remove `return`
  |
5 -     return subtotal + tax;
5 +     subtotal + tax
  |

error: could not compile `shop` (lib) due to 1 previous error
"#,
        ),
        case(
            "cargo",
            Network,
            r#"
    Updating crates.io index
warning: spurious network error (3 tries remaining): [6] Couldn't resolve host name (Could not resolve host: index.crates.io)
warning: spurious network error (2 tries remaining): [6] Couldn't resolve host name (Could not resolve host: index.crates.io)
warning: spurious network error (1 tries remaining): [6] Couldn't resolve host name (Could not resolve host: index.crates.io)
error: failed to get `serde` as a dependency of package `shop v0.1.0 (/home/dev/shop)`

Caused by:
  download of config.json failed

Caused by:
  failed to download from `https://index.crates.io/config.json`

Caused by:
  [6] Couldn't resolve host name (Could not resolve host: index.crates.io)
"#,
        ),
        case(
            "cargo",
            Resource,
            r#"
   Compiling serde_json v1.0.114
   Compiling shop v0.1.0 (/home/dev/shop)
error: could not compile `shop` (bin "shop")

Caused by:
  process didn't exit successfully: `/home/dev/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc --crate-name shop --edition=2021 src/main.rs --error-format=json --json=diagnostic-rendered-ansi,artifacts,future-incompat --crate-type bin --emit=dep-info,link -C embed-bitcode=no -C debuginfo=2` (signal: 9, SIGKILL: kill)
"#,
        ),
        case(
            "cargo",
            Resource,
            r#"
   Compiling serde_json v1.0.114
error: failed to write /home/dev/shop/target/debug/deps/libserde_json-5d0d0e1a3a6c4e4b.rmeta: No space left on device (os error 28)

error: could not compile `serde_json` (lib) due to 1 previous error
warning: build failed, waiting for other jobs to finish...
"#,
        ),
    ]
}

fn go() -> Vec<Case> {
    vec![
        case(
            "go build",
            missing("github.com/gorilla/mux"),
            r#"
main.go:6:2: no required module provides package github.com/gorilla/mux; to add it:
⇥go get github.com/gorilla/mux
"#,
        ),
        case(
            "go build",
            missing("github.com/lib/pq"),
            r#"
db/db.go:6:2: missing go.sum entry for module providing package github.com/lib/pq (imported by example.com/shop/db); to add:
⇥go get example.com/shop/db
"#,
        ),
        case(
            "go build",
            SyntaxError,
            r#"
# example.com/shop/internal/api
internal/api/users.go:41:3: syntax error: unexpected newline in composite literal; possibly missing comma or }
"#,
        ),
        case(
            "go build",
            ValidationFailed,
            r#"
# example.com/shop/internal/store
internal/store/users.go:27:9: cannot use id (variable of type string) as int value in return statement
internal/store/users.go:33:2: undefined: logger
"#,
        ),
        case(
            "go test",
            ValidationFailed,
            r#"
--- FAIL: TestCreateUser (0.00s)
    users_test.go:31: got status 500, want 201
FAIL
FAIL⇥example.com/shop/internal/api⇥0.014s
ok  ⇥example.com/shop/internal/store⇥0.021s
FAIL
"#,
        ),
        case(
            "go test",
            Timeout,
            r#"
panic: test timed out after 30s
running tests:
⇥TestSyncWorker (30s)

goroutine 34 [running]:
testing.(*M).startAlarm.func1()
⇥/usr/local/go/src/testing/testing.go:2366 +0x385
created by time.goFunc
⇥/usr/local/go/src/time/sleep.go:177 +0x2d

goroutine 1 [chan receive]:
testing.(*T).Run(0xc000007ba0, {0x6b2c4f?, 0x0?}, 0x6e1a40)
⇥/usr/local/go/src/testing/testing.go:1750 +0x3ab
FAIL⇥example.com/shop/internal/worker⇥30.021s
FAIL
"#,
        ),
        case(
            "go test",
            Timeout,
            r#"
--- FAIL: TestFetchProfile (5.00s)
    client_test.go:44: fetch profile: Get "http://127.0.0.1:38211/profile": context deadline exceeded
FAIL
FAIL⇥example.com/shop/client⇥5.012s
FAIL
"#,
        ),
        case(
            "go vet",
            ValidationFailed,
            r#"
# example.com/shop/internal/api
# [example.com/shop/internal/api]
internal/api/log.go:18:2: fmt.Printf format %d has arg name of wrong type string
"#,
        ),
        case(
            "go mod",
            Network,
            r#"
go: downloading github.com/gorilla/mux v1.8.1
go: github.com/gorilla/mux@v1.8.1: Get "https://proxy.golang.org/github.com/gorilla/mux/@v/v1.8.1.zip": dial tcp 142.251.36.17:443: i/o timeout
"#,
        ),
    ]
}

fn c() -> Vec<Case> {
    vec![
        case(
            "gcc",
            SyntaxError,
            r#"
main.c: In function ‘main’:
main.c:4:17: error: expected ‘;’ before ‘return’
    4 |     printf("hi\n")
      |                 ^
      |                 ;
    5 |     return 0;
      |     ~~~~~~
"#,
        ),
        case(
            "gcc",
            missing_unnamed(),
            r#"
src/http.c:2:10: fatal error: curl/curl.h: No such file or directory
    2 | #include <curl/curl.h>
      |          ^~~~~~~~~~~~~
compilation terminated.
"#,
        ),
        case(
            "gcc",
            ValidationFailed,
            r#"
gcc -Wall -Werror -O2 -c src/list.c -o build/list.o
src/list.c: In function ‘list_free’:
src/list.c:42:9: error: unused variable ‘next’ [-Werror=unused-variable]
   42 |   node *next;
      |         ^~~~
cc1: all warnings being treated as errors
make: *** [Makefile:9: build/list.o] Error 1
"#,
        ),
        case(
            "clang",
            SyntaxError,
            r#"
src/main.c:8:23: error: expected ';' after expression
    8 |     int total = sum(a)
      |                       ^
      |                       ;
1 error generated.
"#,
        ),
        case(
            "clang",
            ValidationFailed,
            r#"
src/list.c:14:12: error: incompatible pointer to integer conversion returning 'char *' from a function with result type 'int' [-Wint-conversion]
   14 |     return name;
      |            ^~~~
1 error generated.
"#,
        ),
        case(
            "make",
            missing_unnamed(),
            r#"
cc -o build/app build/main.o build/http.o -lcurl
/usr/bin/ld: cannot find -lcurl: No such file or directory
collect2: error: ld returned 1 exit status
make: *** [Makefile:14: build/app] Error 1
"#,
        ),
        case(
            "make",
            Resource,
            r#"
g++ -O2 -std=c++17 -c src/parser.cpp -o build/parser.o
g++: fatal error: Killed signal terminated program cc1plus
compilation terminated.
make: *** [Makefile:9: build/parser.o] Error 1
"#,
        ),
    ]
}

fn sql() -> Vec<Case> {
    vec![
        case(
            "psql",
            ValidationFailed,
            r#"
psql:db/seed.sql:14: ERROR:  duplicate key value violates unique constraint "users_email_key"
DETAIL:  Key (email)=(ada@example.com) already exists.
"#,
        ),
        case(
            "psql",
            SyntaxError,
            r#"
psql:db/migrations/003_orders.sql:7: ERROR:  syntax error at or near "TABEL"
LINE 1: CREATE TABEL orders (
               ^
"#,
        ),
        case(
            "psql",
            ValidationFailed,
            r#"
psql:db/seed.sql:22: ERROR:  insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"
DETAIL:  Key (user_id)=(42) is not present in table "users".
"#,
        ),
        case(
            "psql",
            ValidationFailed,
            r#"
psql:db/seed.sql:3: ERROR:  relation "users" does not exist
LINE 1: INSERT INTO users (email) VALUES ('ada@example.com');
                    ^
"#,
        ),
        case(
            "psql",
            Network,
            r#"
psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: Connection refused
⇥Is the server running on that host and accepting TCP/IP connections?
"#,
        ),
        case(
            "psql",
            Timeout,
            r#"
psql:db/migrations/007_backfill.sql:4: ERROR:  canceling statement due to statement timeout
CONTEXT:  SQL statement "UPDATE orders SET total_cents = total * 100"
"#,
        ),
        case(
            "sqlite3",
            ValidationFailed,
            r#"
Runtime error near line 12: UNIQUE constraint failed: users.email (19)
"#,
        ),
        case(
            "sqlite3",
            SyntaxError,
            r#"
Parse error near line 3: near "TABEL": syntax error
  CREATE TABEL orders (id INTEGER PRIMARY KEY, total INTEGER);
         ^--- error here
"#,
        ),
        case(
            "sqlite3",
            ValidationFailed,
            r#"
[Error: SQLITE_CONSTRAINT: NOT NULL constraint failed: orders.user_id] {
  errno: 19,
  code: 'SQLITE_CONSTRAINT'
}
"#,
        ),
        case(
            "mysql",
            ValidationFailed,
            r#"
ERROR 1062 (23000) at line 5: Duplicate entry 'ada@example.com' for key 'users.email'
"#,
        ),
        case(
            "mysql",
            SyntaxError,
            r#"
ERROR 1064 (42000) at line 1: You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near 'FORM users' at line 1
"#,
        ),
        case(
            "mysql",
            Timeout,
            r#"
ERROR 1205 (HY000) at line 12: Lock wait timeout exceeded; try restarting transaction
"#,
        ),
    ]
}

fn git() -> Vec<Case> {
    vec![
        case(
            "git merge",
            Conflict,
            r#"
Auto-merging src/api/users.ts
CONFLICT (content): Merge conflict in src/api/users.ts
Automatic merge failed; fix conflicts and then commit the result.
"#,
        ),
        case(
            "git rebase",
            Conflict,
            r#"
Auto-merging db/schema.sql
CONFLICT (content): Merge conflict in db/schema.sql
error: could not apply 3f2a1c9... Add the orders table
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the state before "git rebase", run "git rebase --abort".
Could not apply 3f2a1c9... Add the orders table
"#,
        ),
        case(
            "git merge",
            Conflict,
            r#"
CONFLICT (modify/delete): src/legacy/cart.ts deleted in HEAD and modified in feature/orders.  Version feature/orders of src/legacy/cart.ts left in tree.
Automatic merge failed; fix conflicts and then commit the result.
"#,
        ),
        case(
            "git pull",
            Conflict,
            r#"
Updating 4e1d2c3..9a8b7c6
error: Your local changes to the following files would be overwritten by merge:
⇥src/api/users.ts
Please commit your changes or stash them before you merge.
Aborting
"#,
        ),
        case(
            "python",
            Conflict,
            r#"
  File "/home/dev/shop/app/views.py", line 14
    <<<<<<< HEAD
    ^^
SyntaxError: invalid syntax
"#,
        ),
        case(
            "git fetch",
            Network,
            r#"
fatal: unable to access 'https://github.com/acme/shop.git/': Could not resolve host: github.com
"#,
        ),
    ]
}

fn machine() -> Vec<Case> {
    vec![
        case(
            "sh",
            missing_unnamed(),
            r#"

> shop@0.1.0 db:migrate
> prisma migrate deploy

sh: 1: prisma: not found
"#,
        ),
        case(
            "curl",
            Network,
            r#"
curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server
"#,
        ),
        case(
            "python",
            Resource,
            r#"
Loading 2,000,000 rows from data/orders.csv
Building features...
Killed
"#,
        ),
        case(
            "python",
            Resource,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/scripts/build_index.py", line 41, in <module>
    vectors = np.zeros((rows, 4096), dtype=np.float64)
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 61.0 GiB for an array with shape (2000000, 4096) and data type float64
"#,
        ),
        case(
            "python",
            Resource,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/scripts/split.py", line 18, in <module>
    out = open(f"data/part-{i:04}.csv", "w")
OSError: [Errno 24] Too many open files: 'data/part-0412.csv'
"#,
        ),
        case(
            "python",
            Resource,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/scripts/export.py", line 27, in <module>
    subprocess.run(["pg_dump", "shop"], check=True)
  File "/usr/lib/python3.11/subprocess.py", line 1026, in __init__
    self._execute_child(args, executable, preexec_fn, close_fds,
  File "/usr/lib/python3.11/subprocess.py", line 1885, in _execute_child
    self.pid = _fork_exec(
OSError: [Errno 12] Cannot allocate memory
"#,
        ),
        case(
            "sh",
            Other,
            r#"
Running the self test...
Segmentation fault (core dumped)
"#,
        ),
    ]
}

/// The development cases of issue 22's toolchains, written with the
/// held-out ones (before the rows) and consulted while writing the rows.
fn toolchains() -> Vec<Case> {
    let mut all = Vec::new();
    all.extend(jvm());
    all.extend(dotnet());
    all.extend(swift());
    all.extend(beam());
    all.extend(haskell());
    all.extend(terraform());
    all.extend(php());
    all.extend(ruby());
    all.extend(dart());
    all.extend(javascript_runners());
    all.extend(python_tools());
    all.extend(cmake());
    all.extend(yaml_and_shell());
    all.extend(no_diagnostic());
    all
}

fn jvm() -> Vec<Case> {
    vec![
        case(
            "javac",
            SyntaxError,
            r#"
src/main/java/com/acme/shop/OrderService.java:42: error: ';' expected
        return total
                    ^
1 error
"#,
        ),
        case(
            "javac",
            missing("com.fasterxml.jackson.databind"),
            r#"
src/main/java/com/acme/shop/Json.java:3: error: package com.fasterxml.jackson.databind does not exist
import com.fasterxml.jackson.databind.ObjectMapper;
                                     ^
src/main/java/com/acme/shop/Json.java:7: error: cannot find symbol
    private static final ObjectMapper MAPPER = new ObjectMapper();
                         ^
  symbol:   class ObjectMapper
  location: class Json
2 errors
"#,
        ),
        case(
            "javac",
            ValidationFailed,
            r#"
src/main/java/com/acme/shop/CartController.java:29: error: cannot find symbol
        return cart.totl();
                   ^
  symbol:   method totl()
  location: variable cart of type Cart
1 error
"#,
        ),
        case(
            "mvn",
            ValidationFailed,
            r#"
[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.acme.shop.OrderServiceTest
[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.112 s <<< FAILURE! -- in com.acme.shop.OrderServiceTest
[ERROR] com.acme.shop.OrderServiceTest.totalIncludesTax -- Time elapsed: 0.011 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <108> but was: <100>
⇥at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
⇥at org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)
⇥at com.acme.shop.OrderServiceTest.totalIncludesTax(OrderServiceTest.java:27)

[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   OrderServiceTest.totalIncludesTax:27 expected: <108> but was: <100>
[INFO] 
[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  2.981 s
[INFO] Finished at: 2024-03-04T10:14:52Z
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project shop: There are test failures.
[ERROR] 
[ERROR] Please refer to /home/dev/shop/target/surefire-reports for the individual test results.
[ERROR] -> [Help 1]
"#,
        ),
        case(
            "mvn",
            SyntaxError,
            r#"
[INFO] --- compiler:3.11.0:compile (default-compile) @ shop ---
[INFO] Changes detected - recompiling the module! :source
[INFO] Compiling 12 source files with javac [debug target 17] to target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
[ERROR] /home/dev/shop/src/main/java/com/acme/shop/OrderService.java:[42,29] ';' expected
[INFO] 1 error
[INFO] -------------------------------------------------------------
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  1.412 s
[INFO] Finished at: 2024-03-04T10:12:33Z
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project shop: Compilation failure
[ERROR] /home/dev/shop/src/main/java/com/acme/shop/OrderService.java:[42,29] ';' expected
[ERROR] 
[ERROR] -> [Help 1]
"#,
        ),
        case(
            "mvn",
            Network,
            r#"
[INFO] Scanning for projects...
[INFO] 
[INFO] --------------------------< com.acme:shop >---------------------------
[INFO] Building shop 1.0-SNAPSHOT
[INFO] --------------------------------[ jar ]---------------------------------
Downloading from central: https://repo.maven.apache.org/maven2/org/postgresql/postgresql/42.7.2/postgresql-42.7.2.pom
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal on project shop: Could not resolve dependencies for project com.acme:shop:jar:1.0-SNAPSHOT: Failed to collect dependencies at org.postgresql:postgresql:jar:42.7.2: Failed to read artifact descriptor for org.postgresql:postgresql:jar:42.7.2: Could not transfer artifact org.postgresql:postgresql:pom:42.7.2 from/to central (https://repo.maven.apache.org/maven2): Transfer failed for https://repo.maven.apache.org/maven2/org/postgresql/postgresql/42.7.2/postgresql-42.7.2.pom: Unknown host repo.maven.apache.org -> [Help 1]
"#,
        ),
        case(
            "gradle",
            ValidationFailed,
            r#"
> Task :app:test FAILED

OrderServiceTest > totalIncludesTax() FAILED
    org.opentest4j.AssertionFailedError at OrderServiceTest.java:27

5 tests completed, 1 failed

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:test'.
> There were failing tests. See the report at: file:///home/dev/shop/app/build/reports/tests/test/index.html

* Try:
> Run with --scan to get full insights.

BUILD FAILED in 7s
4 actionable tasks: 2 executed, 2 up-to-date
"#,
        ),
        case(
            "gradle",
            Resource,
            r#"
> Task :app:compileKotlin
Expiring Daemon because JVM heap space is exhausted
Daemon will be stopped at the end of the build after running out of JVM memory

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> Java heap space

* Try:
> Run with --stacktrace option to get the stack trace.
> Run with --info or --debug option to get more log output.
> Run with --scan to get full insights.

BUILD FAILED in 1m 12s
"#,
        ),
        case(
            "gradle",
            Other,
            r#"
FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> Could not resolve all files for configuration ':app:compileClasspath'.
   > Could not find com.squareup.okhttp3:okhttp:5.9.9.
     Searched in the following locations:
       - https://repo.maven.apache.org/maven2/com/squareup/okhttp3/okhttp/5.9.9/okhttp-5.9.9.pom
     Required by:
         project :app

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 3s
"#,
        ),
        case(
            "kotlinc",
            ValidationFailed,
            r#"
> Task :app:compileKotlin FAILED
e: file:///home/dev/shop/app/src/main/kotlin/com/acme/shop/Orders.kt:14:32 Unresolved reference: logger
e: file:///home/dev/shop/app/src/main/kotlin/com/acme/shop/Orders.kt:22:9 Val cannot be reassigned

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

BUILD FAILED in 4s
5 actionable tasks: 2 executed, 3 up-to-date
"#,
        ),
        case(
            "kotlinc",
            SyntaxError,
            r#"
> Task :app:compileKotlin FAILED
e: file:///home/dev/shop/app/src/main/kotlin/com/acme/shop/Cart.kt:12:41 Expecting ')'
e: file:///home/dev/shop/app/src/main/kotlin/com/acme/shop/Cart.kt:14:1 Expecting '}'

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction
   > Compilation error. See log for more details

BUILD FAILED in 3s
"#,
        ),
        case(
            "scalac",
            SyntaxError,
            r#"
[info] compiling 4 Scala sources to /home/dev/shop/target/scala-3.3.1/classes ...
[error] -- [E040] Syntax Error: /home/dev/shop/src/main/scala/shop/Orders.scala:14:36 
[error] 14 |  def total(items: List[Item]): Int = items.map(_.price.sum
[error]    |                                                          ^
[error]    |                                                          ')' expected, but eof found
[error] one error found
[error] (Compile / compileIncremental) Compilation failed
[error] Total time: 3 s, completed Mar 4, 2024, 10:12:33 AM
"#,
        ),
        case(
            "scalac",
            ValidationFailed,
            r#"
[info] compiling 4 Scala sources to /home/dev/shop/target/scala-3.3.1/classes ...
[error] -- [E006] Not Found Error: /home/dev/shop/src/main/scala/shop/Cart.scala:22:4 
[error] 22 |    logger.info(s"checkout ${cart.id}")
[error]    |    ^^^^^^
[error]    |    Not found: logger
[error]    |
[error]    | longer explanation available when compiling with `-explain`
[error] one error found
[error] (Compile / compileIncremental) Compilation failed
"#,
        ),
        case(
            "sbt",
            ValidationFailed,
            r#"
[info] OrdersSpec:
[info] - total includes tax *** FAILED ***
[info]   100 did not equal 108 (OrdersSpec.scala:12)
[info] - empty cart has no total
[info] Run completed in 412 milliseconds.
[info] Total number of tests run: 2
[info] Suites: completed 1, aborted 0
[info] Tests: succeeded 1, failed 1, canceled 0, ignored 0, pending 0
[info] *** 1 TEST FAILED ***
[error] Failed tests:
[error] ⇥shop.OrdersSpec
[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful
[error] Total time: 5 s, completed Mar 4, 2024, 10:14:02 AM
"#,
        ),
        case(
            "sbt",
            Network,
            r#"
[info] Updating shop_3
[error] sbt.librarymanagement.ResolveException: Error downloading org.typelevel:cats-core_3:2.10.0
[error]   Not found
[error]   Not found
[error]   download error: Caught java.net.UnknownHostException: repo1.maven.org (repo1.maven.org) while downloading https://repo1.maven.org/maven2/org/typelevel/cats-core_3/2.10.0/cats-core_3-2.10.0.pom
[error] (update) sbt.librarymanagement.ResolveException: Error downloading org.typelevel:cats-core_3:2.10.0
"#,
        ),
    ]
}

fn dotnet() -> Vec<Case> {
    vec![
        case(
            "dotnet build",
            SyntaxError,
            r#"
MSBuild version 17.9.6+a4ecab324 for .NET
  Determining projects to restore...
  All projects are up-to-date for restore.
/home/dev/shop/src/Shop.Api/Controllers/OrdersController.cs(42,35): error CS1002: ; expected [/home/dev/shop/src/Shop.Api/Shop.Api.csproj]

Build FAILED.

/home/dev/shop/src/Shop.Api/Controllers/OrdersController.cs(42,35): error CS1002: ; expected [/home/dev/shop/src/Shop.Api/Shop.Api.csproj]
    0 Warning(s)
    1 Error(s)

Time Elapsed 00:00:02.41
"#,
        ),
        case(
            "dotnet build",
            ValidationFailed,
            r#"
  Determining projects to restore...
  All projects are up-to-date for restore.
/home/dev/shop/src/Shop.Core/Orders/OrderService.cs(27,13): error CS0103: The name 'logger' does not exist in the current context [/home/dev/shop/src/Shop.Core/Shop.Core.csproj]

Build FAILED.

/home/dev/shop/src/Shop.Core/Orders/OrderService.cs(27,13): error CS0103: The name 'logger' does not exist in the current context [/home/dev/shop/src/Shop.Core/Shop.Core.csproj]
    0 Warning(s)
    1 Error(s)

Time Elapsed 00:00:01.96
"#,
        ),
        case(
            "dotnet test",
            ValidationFailed,
            r#"
  Determining projects to restore...
  All projects are up-to-date for restore.
  Shop.Core -> /home/dev/shop/src/Shop.Core/bin/Debug/net8.0/Shop.Core.dll
  Shop.Tests -> /home/dev/shop/tests/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll
Test run for /home/dev/shop/tests/Shop.Tests/bin/Debug/net8.0/Shop.Tests.dll (.NETCoreApp,Version=v8.0)
Microsoft (R) Test Execution Command Line Tool Version 17.9.0 (x64)
Copyright (c) Microsoft Corporation.  All rights reserved.

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
[xUnit.net 00:00:00.41]     Shop.Tests.OrderTests.Total_IncludesTax [FAIL]
  Failed Shop.Tests.OrderTests.Total_IncludesTax [12 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 108
Actual:   100
  Stack Trace:
     at Shop.Tests.OrderTests.Total_IncludesTax() in /home/dev/shop/tests/Shop.Tests/OrderTests.cs:line 17
   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)

Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12, Duration: 41 ms - Shop.Tests.dll (net8.0)
"#,
        ),
        case(
            "dotnet restore",
            Network,
            r#"
  Determining projects to restore...
/home/dev/shop/src/Shop.Api/Shop.Api.csproj : error NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json. [/home/dev/shop/Shop.sln]
  Failed to restore /home/dev/shop/src/Shop.Api/Shop.Api.csproj (in 2.81 sec).
"#,
        ),
        case(
            "dotnet restore",
            Other,
            r#"
  Determining projects to restore...
/home/dev/shop/src/Shop.Api/Shop.Api.csproj : error NU1101: Unable to find package Newtonsoft.Jsonn. No packages exist with this id in source(s): nuget.org [/home/dev/shop/Shop.sln]
  Failed to restore /home/dev/shop/src/Shop.Api/Shop.Api.csproj (in 1.12 sec).
"#,
        ),
    ]
}

fn swift() -> Vec<Case> {
    vec![
        case(
            "swift build",
            SyntaxError,
            r#"
Building for debugging...
[1/4] Compiling Shop Order.swift
/home/dev/shop/Sources/Shop/Order.swift:14:35: error: expected ',' separator
        let total = items.reduce(0 { $0 + $1.price })
                                  ^
                                  ,
error: emit-module command failed with exit code 1 (use -v to see invocation)
"#,
        ),
        case(
            "swift build",
            missing("Alamofire"),
            r#"
Building for debugging...
/home/dev/shop/Sources/Shop/Client.swift:2:8: error: no such module 'Alamofire'
import Alamofire
       ^
error: emit-module command failed with exit code 1 (use -v to see invocation)
"#,
        ),
        case(
            "swift test",
            ValidationFailed,
            r#"
Building for debugging...
Build complete! (3.88s)
Test Suite 'All tests' started at 2024-03-04 10:12:33.118
Test Suite 'ShopPackageTests.xctest' started at 2024-03-04 10:12:33.119
Test Suite 'OrderTests' started at 2024-03-04 10:12:33.119
Test Case 'OrderTests.testEmptyCartIsFree' started at 2024-03-04 10:12:33.119
Test Case 'OrderTests.testEmptyCartIsFree' passed (0.001 seconds)
Test Case 'OrderTests.testTotalIncludesTax' started at 2024-03-04 10:12:33.120
/home/dev/shop/Tests/ShopTests/OrderTests.swift:12: error: OrderTests.testTotalIncludesTax : XCTAssertEqual failed: ("100") is not equal to ("108") - 
Test Case 'OrderTests.testTotalIncludesTax' failed (0.002 seconds)
Test Suite 'OrderTests' failed at 2024-03-04 10:12:33.121
⇥ Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.003) seconds
Test Suite 'ShopPackageTests.xctest' failed at 2024-03-04 10:12:33.121
⇥ Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.003) seconds
Test Suite 'All tests' failed at 2024-03-04 10:12:33.121
⇥ Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.003) seconds
"#,
        ),
    ]
}

fn beam() -> Vec<Case> {
    vec![
        case(
            "elixir",
            SyntaxError,
            r#"
Compiling 3 files (.ex)

== Compilation error in file lib/shop/orders.ex ==
** (SyntaxError) lib/shop/orders.ex:14:32: syntax error before: ')'
    (elixir 1.14.5) lib/kernel/parallel_compiler.ex:346: anonymous fn/5 in Kernel.ParallelCompiler.spawn_workers/7
"#,
        ),
        case(
            "exunit",
            ValidationFailed,
            r#"
Running ExUnit with seed: 123456, max_cases: 16

..

  1) test total includes tax (Shop.OrdersTest)
     test/shop/orders_test.exs:8
     Assertion with == failed
     code:  assert Orders.total(order) == 108
     left:  100
     right: 108
     stacktrace:
       test/shop/orders_test.exs:10: (test)

.
Finished in 0.04 seconds (0.04s async, 0.00s sync)
4 tests, 1 failure

Randomized with seed 123456
"#,
        ),
        case(
            "mix",
            missing("jason"),
            r#"
Unchecked dependencies for environment dev:
* jason (Hex package)
  the dependency is not available, run "mix deps.get"
** (Mix) Can't continue due to errors on dependencies
"#,
        ),
        case(
            "elixir",
            ValidationFailed,
            r#"
Compiling 1 file (.ex)
    error: undefined variable "totl"
    │
 14 │     totl * 2
    │     ^^^^
    │
    └─ lib/shop/cart.ex:14:5: Shop.Cart.double/1

== Compilation error in file lib/shop/cart.ex ==
** (CompileError) lib/shop/cart.ex: cannot compile module Shop.Cart (errors have been logged)
"#,
        ),
    ]
}

fn haskell() -> Vec<Case> {
    vec![
        case(
            "ghc",
            SyntaxError,
            r#"
[2 of 4] Compiling Shop.Orders      ( src/Shop/Orders.hs, dist-newstyle/build/x86_64-linux/ghc-9.6.4/shop-0.1.0.0/build/Shop/Orders.o )

src/Shop/Orders.hs:14:36: error: [GHC-58481]
    parse error on input ‘=’
   |
14 | total items = sum (map price items = 0
   |                                    ^
"#,
        ),
        case(
            "ghc",
            missing("aeson"),
            r#"
src/Shop/Json.hs:5:1: error:
    Could not load module ‘Data.Aeson’
    It is a member of the hidden package ‘aeson-2.1.2.1’.
    Perhaps you need to add ‘aeson’ to the build-depends in your .cabal file.
    Use -v (or `:set -v` in ghci) to see a list of the files searched for.
  |
5 | import Data.Aeson (encode, decode)
  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
"#,
        ),
        case(
            "stack test",
            ValidationFailed,
            r#"
shop> test (suite: shop-test)

Orders
  total
    includes tax FAILED [1]
    is zero for an empty cart

Failures:

  test/OrdersSpec.hs:12:7: 
  1) Orders.total includes tax
       expected: 108
        but got: 100

  To rerun use: --match "/Orders/total/includes tax/"

Randomized with seed 1234

Finished in 0.0021 seconds
2 examples, 1 failure

shop> Test suite shop-test failed
Error: [S-7282]
       Stack failed to execute the build plan.
"#,
        ),
        case(
            "cabal",
            Other,
            r#"
Resolving dependencies...
Error: cabal: Could not resolve dependencies:
[__0] trying: shop-0.1.0.0 (user goal)
[__1] next goal: aeson (dependency of shop)
[__1] rejecting: aeson-2.2.1.0 (conflict: shop => aeson>=3)
[__1] fail (backjumping, conflict set: aeson, shop)
After searching the rest of the dependency tree exhaustively, these were the goals I've had most trouble fulfilling: shop, aeson
"#,
        ),
    ]
}

fn terraform() -> Vec<Case> {
    vec![
        case(
            "terraform",
            SyntaxError,
            r#"
╷
│ Error: Argument or block definition required
│ 
│   on main.tf line 14, in resource "aws_s3_bucket" "assets":
│   14:   bucket = "shop-assets
│ 
│ An argument or block definition is required here. To set an argument, use the equals sign "=" to introduce the argument value.
╵
"#,
        ),
        case(
            "terraform",
            ValidationFailed,
            r#"
╷
│ Error: Reference to undeclared resource
│ 
│   on outputs.tf line 2, in output "bucket_arn":
│    2:   value = aws_s3_bucket.asset.arn
│ 
│ A managed resource "aws_s3_bucket" "asset" has not been declared in the root module.
╵
"#,
        ),
        case(
            "terraform",
            missing("hashicorp/aws"),
            r#"
╷
│ Error: Missing required provider
│ 
│ This configuration requires provider registry.terraform.io/hashicorp/aws, but that provider isn't available. You may be able to install it
│ automatically by running:
│   terraform init
╵
"#,
        ),
    ]
}

fn php() -> Vec<Case> {
    vec![
        case(
            "php",
            SyntaxError,
            r#"
PHP Parse error:  syntax error, unexpected token "}", expecting ";" in /home/dev/shop/src/Cart/CartService.php on line 42
Errors parsing /home/dev/shop/src/Cart/CartService.php
"#,
        ),
        case(
            "phpunit",
            ValidationFailed,
            r#"
PHPUnit 10.5.11 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.3
Configuration: /home/dev/shop/phpunit.xml

..F..                                                               5 / 5 (100%)

Time: 00:00.021, Memory: 8.00 MB

There was 1 failure:

1) Tests\Unit\OrderServiceTest::testTotalIncludesTax
Failed asserting that 100 matches expected 108.

/home/dev/shop/tests/Unit/OrderServiceTest.php:18

FAILURES!
Tests: 5, Assertions: 7, Failures: 1.
"#,
        ),
        case(
            "composer",
            Network,
            r#"
Loading composer repositories with package information

In CurlDownloader.php line 390:
                                                                                                    
  curl error 6 while downloading https://repo.packagist.org/packages.json: Could not resolve host: repo.packagist.org  
                                                                                                    

require [--dev] [--dry-run] [--prefer-source] [--prefer-dist] [--prefer-install PREFER-INSTALL] [--fixed] [--no-suggest] [--no-progress] [--no-update] [--no-install] [--no-audit] [--audit-format AUDIT-FORMAT] [--update-no-dev] [-w|--update-with-dependencies] [-W|--update-with-all-dependencies] [--with-dependencies] [--with-all-dependencies] [--ignore-platform-req IGNORE-PLATFORM-REQ] [--ignore-platform-reqs] [--prefer-stable] [--prefer-lowest] [--sort-packages] [-o|--optimize-autoloader] [-a|--classmap-authoritative] [--apcu-autoloader] [--apcu-autoloader-prefix APCU-AUTOLOADER-PREFIX] [--] [<packages>...]
"#,
        ),
        case(
            "composer",
            missing("ext-intl"),
            r#"
Installing dependencies from lock file (including require-dev)
Verifying lock file contents can be installed on current platform.
Your lock file does not contain a compatible set of packages. Please run composer update.

  Problem 1
    - Root composer.json requires PHP extension ext-intl * but it is missing from your system. Install or enable PHP's intl extension.

To enable extensions, verify that they are enabled in your .ini files:
    - /etc/php/8.3/cli/php.ini
    - /etc/php/8.3/cli/conf.d/10-opcache.ini
You can also run `php --ini` in a terminal to see which files are used by PHP in CLI mode.
Alternatively, you can run Composer with `--ignore-platform-req=ext-intl` to temporarily ignore these required extensions.
"#,
        ),
        case(
            "phpstan",
            ValidationFailed,
            r#"
 ------ --------------------------------------------------------------------- 
  Line   src/Orders/OrderService.php                                          
 ------ --------------------------------------------------------------------- 
  42     Method App\Orders\OrderService::total() should return int but        
         returns string.                                                      
 ------ --------------------------------------------------------------------- 

                                                                                
 [ERROR] Found 1 error                                                          
                                                                                
"#,
        ),
    ]
}

fn ruby() -> Vec<Case> {
    vec![
        case(
            "ruby",
            SyntaxError,
            r#"
/home/dev/shop/app/models/order.rb:14: syntax error, unexpected `end', expecting end-of-input
"#,
        ),
        case(
            "ruby",
            missing("faraday"),
            r#"
<internal:/usr/lib/ruby/3.2.0/rubygems/core_ext/kernel_require.rb>:86:in `require': cannot load such file -- faraday (LoadError)
⇥from <internal:/usr/lib/ruby/3.2.0/rubygems/core_ext/kernel_require.rb>:86:in `require'
⇥from /home/dev/shop/app/clients/payments.rb:1:in `<main>'
"#,
        ),
        case(
            "bundler",
            missing("faraday"),
            r#"
Could not find gem 'faraday (~> 2.9)' in locally installed gems.

Run `bundle install` to install missing gems.
"#,
        ),
        case(
            "bundler",
            Other,
            r#"
Fetching gem metadata from https://rubygems.org/.........
Resolving dependencies...
Bundler could not find compatible versions for gem "rack":
  In Gemfile:
    rails (~> 7.1.3) was resolved to 7.1.3, which depends on
      actionpack (= 7.1.3) was resolved to 7.1.3, which depends on
        rack (>= 2.2.4)

    sinatra (~> 2.2) was resolved to 2.2.4, which depends on
      rack (~> 2.2, >= 2.2.4)
"#,
        ),
        case(
            "rspec",
            ValidationFailed,
            r#"
..F.

Failures:

  1) Order#total includes tax
     Failure/Error: expect(order.total).to eq(108)

       expected: 108
            got: 100

       (compared using ==)
     # ./spec/models/order_spec.rb:12:in `block (3 levels) in <top (required)>'

Finished in 0.02145 seconds (files took 0.41231 seconds to load)
4 examples, 1 failure

Failed examples:

rspec ./spec/models/order_spec.rb:10 # Order#total includes tax
"#,
        ),
        case(
            "minitest",
            ValidationFailed,
            r#"
Running 6 tests in a single process (parallelization threshold is 50)
Run options: --seed 41231

# Running:

..F...

Failure:
OrderTest#test_total_includes_tax [/home/dev/shop/test/models/order_test.rb:12]:
Expected: 108
  Actual: 100


bin/rails test test/models/order_test.rb:10



Finished in 0.183225s, 32.7466 runs/s, 38.2044 assertions/s.
6 runs, 7 assertions, 1 failures, 0 errors, 0 skips
"#,
        ),
        case(
            "rubocop",
            ValidationFailed,
            r#"
Inspecting 24 files
..C.....W...............

Offenses:

app/models/order.rb:12:5: C: Style/GuardClause: Use a guard clause (return unless items.any?) instead of wrapping the code inside a conditional expression.
    if items.any?
    ^^
app/services/checkout.rb:8:7: W: Lint/UselessAssignment: Useless assignment to variable - total.
      total = cart.total
      ^^^^^

24 files inspected, 2 offenses detected
"#,
        ),
    ]
}

fn dart() -> Vec<Case> {
    vec![
        case(
            "dart analyze",
            SyntaxError,
            r#"
Analyzing shop...                      0.9s

  error - lib/src/orders.dart:14:31 - Expected to find ';'. - expected_token

1 issue found.
"#,
        ),
        case(
            "dart analyze",
            missing("http"),
            r#"
Analyzing shop...                      1.1s

  error - lib/src/client.dart:1:8 - Target of URI doesn't exist: 'package:http/http.dart'. Try creating the file referenced by the URI, or try using a URI for a file that does exist. - uri_does_not_exist
  error - lib/src/client.dart:9:22 - The function 'get' isn't defined. Try importing the library that defines 'get', correcting the name to the name of an existing function, or defining a function named 'get'. - undefined_function

2 issues found.
"#,
        ),
        case(
            "dart test",
            ValidationFailed,
            r#"
00:01 +3 -1: test/orders_test.dart: total includes tax [E]
  Expected: <108>
    Actual: <100>
  
  package:matcher                  expect
  test/orders_test.dart 12:5       main.<fn>
  

To run this test again: /usr/lib/dart/bin/dart test test/orders_test.dart -p vm --plain-name 'total includes tax'
00:01 +3 -1: Some tests failed.
"#,
        ),
        case(
            "flutter test",
            ValidationFailed,
            r#"
00:03 +4: /home/dev/shop/test/widget_test.dart: cart shows the total
══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞════════════════════════════════════════════════════
The following TestFailure was thrown running a test:
Expected: exactly one matching candidate
  Actual: _TextWidgetFinder:<Found 0 widgets with text "Total: 108.00": []>
   Which: means none were found but one was expected

When the exception was thrown, this was the stack:
#4      main.<anonymous closure> (file:///home/dev/shop/test/widget_test.dart:22:5)
<asynchronous suspension>

This was caught by the test expectation on the following line:
  file:///home/dev/shop/test/widget_test.dart line 22
The test description was:
  cart shows the total
════════════════════════════════════════════════════════════════════════════════════════════════════
00:03 +4 -1: /home/dev/shop/test/widget_test.dart: cart shows the total [E]
  Test failed. See exception logs above.
  The test description was: cart shows the total

00:04 +5 -1: Some tests failed.
"#,
        ),
        case(
            "dart pub",
            Other,
            r#"
Resolving dependencies... 
Because shop depends on htttp any which doesn't exist (could not find package htttp at https://pub.dev), version solving failed.
"#,
        ),
    ]
}

fn javascript_runners() -> Vec<Case> {
    vec![
        case(
            "playwright",
            ValidationFailed,
            r#"

Running 8 tests using 4 workers

  1) [chromium] › tests/cart.spec.ts:14:7 › cart › shows the total ────────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)

    Locator: getByTestId('cart-total')
    Expected string: "108.00"
    Received string: "100.00"
    Call log:
      - expect.toHaveText with timeout 5000ms
      - waiting for getByTestId('cart-total')
      -   locator resolved to <span data-testid="cart-total">100.00</span>
      -   unexpected value "100.00"


      16 |     await page.getByRole('button', { name: 'Add' }).click();
    > 17 |     await expect(page.getByTestId('cart-total')).toHaveText('108.00');
         |                                                  ^
      18 |   });

        at /home/dev/shop/tests/cart.spec.ts:17:50

  1 failed
    [chromium] › tests/cart.spec.ts:14:7 › cart › shows the total ─────────────────────────────────
  7 passed (12.4s)
"#,
        ),
        case(
            "playwright",
            Network,
            r#"

Running 2 tests using 1 worker

  1) [chromium] › tests/home.spec.ts:3:5 › home page ─────────────────────────────────────────────────

    Error: page.goto: net::ERR_CONNECTION_REFUSED at http://localhost:3000/
    Call log:
      - navigating to "http://localhost:3000/", waiting until "load"


      3 | test('home page', async ({ page }) => {
    > 4 |   await page.goto('/');
        |              ^
      5 |   await expect(page).toHaveTitle(/Shop/);

        at /home/dev/shop/tests/home.spec.ts:4:14

  1 failed
    [chromium] › tests/home.spec.ts:3:5 › home page ──────────────────────────────────────────────────
  1 passed (2.1s)
"#,
        ),
        case(
            "playwright",
            missing_unnamed(),
            r#"

Running 4 tests using 2 workers

  1) [chromium] › tests/home.spec.ts:3:5 › home page ─────────────────────────────────────────────────

    Error: browserType.launch: Executable doesn't exist at /home/dev/.cache/ms-playwright/chromium-1105/chrome-linux/chrome
    ╔═════════════════════════════════════════════════════════════════════════╗
    ║ Looks like Playwright Test or Playwright was just installed or updated. ║
    ║ Please run the following command to download new browsers:              ║
    ║                                                                         ║
    ║     npx playwright install                                              ║
    ║                                                                         ║
    ║ <3 Playwright Team                                                      ║
    ╚═════════════════════════════════════════════════════════════════════════╝

  4 failed
"#,
        ),
        case(
            "node --test",
            ValidationFailed,
            r#"
✔ parses an empty order (0.61ms)
✖ applies the discount (1.47ms)
ℹ tests 2
ℹ suites 0
ℹ pass 1
ℹ fail 1
ℹ cancelled 0
ℹ skipped 0
ℹ todo 0
ℹ duration_ms 52.36

✖ failing tests:

test at test/cart.test.mjs:9:1
✖ applies the discount (1.47ms)
  Error: total was 90, wanted 81
      at TestContext.<anonymous> (file:///home/dev/shop/test/cart.test.mjs:12:11)
"#,
        ),
        case(
            "bun test",
            ValidationFailed,
            r#"
bun test v1.1.8 (89d25807)

src/cart.test.ts:
✓ cart > adds an item [0.41ms]
10 |   test("applies the discount", () => {
11 |     const cart = new Cart([{ price: 100 }]);
12 |     cart.apply("SAVE10");
13 |     expect(cart.total()).toBe(81);
                              ^
error: expect(received).toBe(expected)

Expected: 81
Received: 90

      at /home/dev/shop/src/cart.test.ts:13:26
✗ cart > applies the discount [0.88ms]

 1 pass
 1 fail
 2 expect() calls
Ran 2 tests across 1 files. [31.00ms]
"#,
        ),
        case(
            "deno test",
            ValidationFailed,
            r#"
running 2 tests from ./cart_test.ts
adds an item ... ok (1ms)
applies the discount ... FAILED (2ms)

 ERRORS 

applies the discount => ./cart_test.ts:9:6
error: AssertionError: Values are not equal.


    [Diff] Actual / Expected


-   90
+   81

  throw new AssertionError(message);
        ^
    at assertEquals (https://jsr.io/@std/assert/1.0.0/equals.ts:51:9)
    at file:///home/dev/shop/cart_test.ts:12:3

 FAILURES 

applies the discount => ./cart_test.ts:9:6

FAILED | 1 passed | 1 failed (14ms)

error: Test failed
"#,
        ),
        case(
            "deno",
            missing("zod"),
            r#"
error: Relative import path "zod" not prefixed with / or ./ or ../ and not in import map from "file:///home/dev/shop/schema.ts"
  hint: If you want to use the npm package, try running `deno add npm:zod`
    at file:///home/dev/shop/schema.ts:1:19
"#,
        ),
    ]
}

fn python_tools() -> Vec<Case> {
    vec![
        case(
            "pyright",
            missing("httpx"),
            r#"
/home/dev/shop/app/clients/payments.py
  /home/dev/shop/app/clients/payments.py:3:8 - error: Import "httpx" could not be resolved (reportMissingImports)
  /home/dev/shop/app/clients/payments.py:18:12 - error: Type of "post" is unknown (reportUnknownMemberType)
2 errors, 0 warnings, 0 informations 
"#,
        ),
        case(
            "pyright",
            ValidationFailed,
            r#"
/home/dev/shop/app/services/users.py
  /home/dev/shop/app/services/users.py:42:18 - error: Argument of type "str" cannot be assigned to parameter "user_id" of type "int" in function "get_user"
    "str" is not assignable to "int" (reportArgumentType)
1 error, 0 warnings, 0 informations 
"#,
        ),
        case(
            "pip",
            SyntaxError,
            r#"
ERROR: Invalid requirement: 'flask=2.0': Expected end or semicolon (after name and no valid version specifier)
    flask=2.0
         ^ (from line 3 of requirements.txt)
Hint: = is not a valid operator. Did you mean == ?
"#,
        ),
        case(
            "unittest",
            ValidationFailed,
            r#"
.F..
======================================================================
FAIL: test_total_includes_tax (tests.test_orders.OrderTests.test_total_includes_tax)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/home/dev/shop/tests/test_orders.py", line 14, in test_total_includes_tax
    self.assertEqual(order.total(), 108)
AssertionError: 100 != 108

----------------------------------------------------------------------
Ran 4 tests in 0.002s

FAILED (failures=1)
"#,
        ),
    ]
}

fn cmake() -> Vec<Case> {
    vec![
        case(
            "ctest",
            ValidationFailed,
            r#"
Test project /home/dev/shop/build
    Start 1: parser_test
1/3 Test #1: parser_test ......................   Passed    0.01 sec
    Start 2: cart_test
2/3 Test #2: cart_test ........................***Failed    0.02 sec
    Start 3: report_test
3/3 Test #3: report_test ......................   Passed    0.01 sec

67% tests passed, 1 tests failed out of 3

Total Test time (real) =   0.05 sec

The following tests FAILED:
⇥  2 - cart_test (Failed)
Errors while running CTest
Output from these tests are in: /home/dev/shop/build/Testing/Temporary/LastTest.log
Use "--rerun-failed --output-on-failure" to re-run the failed cases verbosely.
"#,
        ),
        case(
            "cmake",
            missing("CURL"),
            r#"
-- The C compiler identification is GNU 13.2.0
-- Detecting C compiler ABI info
-- Detecting C compiler ABI info - done
CMake Error at /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:230 (message):
  Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)
Call Stack (most recent call first):
  /usr/share/cmake-3.28/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)
  /usr/share/cmake-3.28/Modules/FindCURL.cmake:194 (find_package_handle_standard_args)
  CMakeLists.txt:12 (find_package)


-- Configuring incomplete, errors occurred!
"#,
        ),
        case(
            "cmake",
            ValidationFailed,
            r#"
-- Configuring done (0.4s)
CMake Error at CMakeLists.txt:14 (add_executable):
  Cannot find source file:

    src/cart.cpp


CMake Error at CMakeLists.txt:14 (add_executable):
  No SOURCES given to target: shop


CMake Generate step failed.  Build files cannot be regenerated correctly.
"#,
        ),
    ]
}

fn yaml_and_shell() -> Vec<Case> {
    vec![
        case(
            "yamllint",
            SyntaxError,
            r#"
.github/workflows/ci.yml
  12:7      error    syntax error: mapping values are not allowed here (syntax)

"#,
        ),
        case(
            "pyyaml",
            SyntaxError,
            r#"
Traceback (most recent call last):
  File "/home/dev/shop/scripts/load_config.py", line 9, in <module>
    config = yaml.safe_load(fh)
             ^^^^^^^^^^^^^^^^^^
  File "/home/dev/shop/.venv/lib/python3.11/site-packages/yaml/scanner.py", line 577, in fetch_value
    raise ScannerError(None, None,
yaml.scanner.ScannerError: mapping values are not allowed here
  in "config/settings.yml", line 12, column 7
"#,
        ),
        case(
            "js-yaml",
            SyntaxError,
            r#"
/home/dev/shop/node_modules/js-yaml/lib/loader.js:183
  return new YAMLException(message, mark);
         ^

YAMLException: bad indentation of a mapping entry (12:7)

  9 | services:
 10 |   web:
 11 |     image: shop
 12 |     ports:
-----------^
 13 |       - "3000:3000"
    at generateError (/home/dev/shop/node_modules/js-yaml/lib/loader.js:183:10)
    at throwError (/home/dev/shop/node_modules/js-yaml/lib/loader.js:187:9)

Node.js v20.11.0
"#,
        ),
        case(
            "shellcheck",
            SyntaxError,
            r#"

In scripts/deploy.sh line 12:
if [ "$ENV" = "prod" ]; then
^-- SC1046 (error): Couldn't find 'fi' for this 'if'.
^-- SC1073 (error): Couldn't parse this if expression. Fix to allow more checks.


In scripts/deploy.sh line 30:

^-- SC1047 (error): Expected 'fi' matching previously mentioned 'if'.
^-- SC1072 (error): Expected 'fi'. Fix any mentioned problems and try again.

For more information:
  https://www.shellcheck.net/wiki/SC1046 -- Couldn't find 'fi' for this 'if'.
  https://www.shellcheck.net/wiki/SC1047 -- Expected 'fi' matching previously...
  https://www.shellcheck.net/wiki/SC1072 -- Expected 'fi'. Fix any mentioned ...
"#,
        ),
        case(
            "shellcheck",
            ValidationFailed,
            r#"

In scripts/release.sh line 7:
cd $BUILD_DIR
^-----------^ SC2164 (warning): Use 'cd ... || exit' or 'cd ... || return' in case cd fails.
   ^--------^ SC2086 (info): Double quote to prevent globbing and word splitting.

Did you mean:
cd "$BUILD_DIR" || exit

For more information:
  https://www.shellcheck.net/wiki/SC2164 -- Use 'cd ... || exit' or 'cd ... |...
  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...
"#,
        ),
        case(
            "bash",
            SyntaxError,
            r#"
scripts/release.sh: line 18: unexpected EOF while looking for matching `"'
"#,
        ),
    ]
}

/// Output no row may match: a failing test command that printed no
/// diagnostic is a failed validation; any other command, or none, leaves
/// it unknown.
fn no_diagnostic() -> Vec<Case> {
    vec![
        run(
            "npm",
            Some("npm run test:unit"),
            ValidationFailed,
            r#"

> shop@0.1.0 test:unit
> node scripts/run-specs.mjs

12 specs, 1 mismatch: specs/refund.json
"#,
        ),
        run(
            "make",
            Some("cd shop && make test"),
            ValidationFailed,
            r#"
cc -o build/check tests/check.c src/cart.c
./build/check
check: cart total 100, expected 108
"#,
        ),
        run(
            "sh",
            Some("./scripts/build-assets.sh"),
            Other,
            r#"
Building assets...
Process exited with code 1
"#,
        ),
        case(
            "sh",
            Other,
            r#"
Starting the dev server...
Process exited with code 1
"#,
        ),
    ]
}
