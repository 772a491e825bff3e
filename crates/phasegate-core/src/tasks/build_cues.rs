//! The generic cues: what each class looks like in any language, whoever
//! prints it, as rows like the families' (`build_table.rs`). The families'
//! rows refine them: on a line both read, a family's row decides unless the
//! generic cue is stronger (see `build.rs`).
//!
//! Written from what each class is and from the cases of
//! `tests/build_decisions/development/` (the first round), `unseen/` (the
//! second), `unseen_2/` (the third), `unseen_3/` (the fourth, which
//! generalised from the reason behind each miss rather than its phrase),
//! `unseen_4/` (the fifth) and `unseen_5/` (the sixth),
//! never from a single toolchain's own sentence, and measured on corpora
//! no cue was written from (`docs/design.md` has the figures): a
//! module, package, library, unit or collection that cannot be found
//! (named when the line names it, on one of the next lines, or as a file
//! the compiler looked for), or a qualified name whose package is not
//! there; a header, a linked library or a program that is missing; a parse
//! error (its words with a position in a file, or after an error's, a
//! tool's or an exception's label, or a punctuation mark expected; any
//! error at a position in a data file); a test summary with failures,
//! TAP's `not ok`, a linter's count, a formatter's diff, a diagnostic at a
//! position, a type error, a value of the wrong kind, a runtime error, a
//! constraint violated; a merge, rebase, update or patch stopped on
//! conflicting changes in any version control system, and the markers a
//! conflict leaves in files; memory, disk, file handles or processes
//! running out, or the kernel killing the process; a time limit or a
//! deadline passed; a host not resolved, a connection refused or reset, a
//! package manager that could not reach its registry. A registry that has
//! no such name or version is the user's to decide (`Unresolvable`, which
//! is `OTHER`).
//!
//! The cues are ordered strongest first, the most specific first within a
//! strength: the first cue that matches a line is the generic say on it.

use super::table::Class::{Conflict, Missing, Network, Resource, Syntax, Timeout, Unresolvable, Validation};
use super::table::Naming::{File, ModulePath, Said, Unnamed};
use super::table::Strength::{Clear, Decisive, Hint};
use super::table::{Row, any_part};

/// What a quoted or bare name looks like: a module, package, library or
/// collection name, with its scope, path, dots or colons; or a path, which
/// names a file of the project (a code error, not a package to install).
macro_rules! name {
    () => {
        r#"['"`‘“«(]?(?P<pkg>[@\w./~][\w@./:+-]*)['"`’”»)]?"#
    };
}

/// A name in quotes.
macro_rules! quoted_name {
    () => {
        r#"['"`‘“«](?P<pkg>[@\w./~][\w@./:+-]*)['"`’”»]"#
    };
}

/// A file's name without a folder, in quotes or not, up to the end of the
/// name (a folder's `/` ends no name: `data/a.csv` is not one).
macro_rules! bare_file {
    () => {
        r#"['"`‘«]?(?P<pkg>[\w@+-][\w@.+-]*?)['"`’»]?(?:[\s,;)]|\.?$)"#
    };
}

/// The kinds of thing a program imports or loads and a package manager
/// installs.
macro_rules! kind {
    () => {
        r"(?:module|package|library|lib|unit|collection|crate|gem|dependency|plugin|extension|provider|framework|bundle|addon|import)s?"
    };
}

/// A file and a place in it: `src/a.x:3`, `a.x:3:5`, `a.x(3,5)`, `a.x(3, 5)`,
/// `a.x:[3,5]`, `a.x, line 3`, `a.x line 3`; or a line and a column
/// without the file: `(3:5)`, `3:5`, `line 3, column 5`.
macro_rules! position {
    () => {
        concat!(
            r"(?:[\w/\\.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}(?::\d+(?:[:.]\d+)?|\(\d+(?:[,:] ?\d+)*\)|:\[\d+,\d+\]|\x22?[,:;]? (?:on |at |in )?(?i:line) \d+)|\x22[\w/\\.~-]+\x22,? (?i:line) \d+|(?i:\bline \d+ (?:of|in) )\x22?[\w/\\.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}\b",
            r"|\(\d+[:,] ?\d+\)|\b\d+:\d+\b|(?i:\bline \d+,? col(?:umn)? \d+))"
        )
    };
}

/// A file and a place in it only (a diagnostic's), or a line and a column
/// in parentheses.
macro_rules! file_position {
    () => {
        concat!(
            r"(?:[\w/\\.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}(?::\d+(?:[:.]\d+)?|\(\d+(?:[,:] ?\d+)*\)|:\[\d+,\d+\]|\x22?[,:;]? (?:on |at |in )?(?i:line) \d+)|\x22[\w/\\.~-]+\x22,? (?i:line) \d+|(?i:\bline \d+ (?:of|in) )\x22?[\w/\\.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}\b",
            r"|\(\d+[:,] ?\d+\))"
        )
    };
}

/// The words of a parse error.
macro_rules! parse_words {
    () => {
        concat!(
            r"(?i:syntax ?error|parse ?error|parsing error|parser error|error (?:while )?parsing|failed to parse|could not parse|unable to parse|cannot parse|invalid syntax",
            r"|error in (?:your |the )?(?:\w+ )?syntax|\b\w*(?:Syntax|Parse|Parser|Scanner|Lexer)(?:Error|Exception)\b",
            r"|unexpected (?:token|character|char|symbol|end(?:[- ]of[- ](?:file|input|line|stream|statement|expression|data|document))?\b|eof|keyword|identifier|indent(?:ation)?|dedent|newline|operator|string|number|literal|'[^']*'|\x22[^\x22]*\x22|`[^`]*`|‘[^’]*’)",
            r"|unterminated (?:string|comment|character|char|literal|block|quote|quoted|regular expression|regexp|list|group|heredoc|here-document|statement)",
            r"|unclosed (?:\w+ )?(?:string|comment|character|bracket|brace|paren(?:thesis)?|delimiter|quote|block|tag|list)",
            r"|(?:unbalanced|mismatched|unmatched) (?:\w+ )?(?:parenthes[ie]s|paren|brackets?|braces?|quotes?|delimiters?|closing|tags?|elements?|blocks?)\b|\btag mismatch\b|\bunterminated\b|(?:did not|didn't|could not|couldn't) find expected\b|cannot start any token\b|(?:unbalanced|mismatched|unmatched|unclosed|unterminated) ['\x22`‘]?[(){}\[\]<>'\x22`]|unmatched \S+",
            r"|premature end of (?:file|input|script|data|stream)|\b(?:end[- ]of[- ](?:file|input)|eof) (?:while|in|reached|encountered|before|found|inside|within|on)\b|\b(?:end[- ]of[- ]line|eol|newline|line break) (?:while|in|inside|within|before the end of) (?:an? |the )?(?:string|literal|constant|comment|character|quoted|regular)|reached (?:the )?end of (?:file|input)|\bends? (?:within|inside|in the middle of)\b|\b(?:unclassifiable|unparsable|unparseable) (?:statement|expression|line|input)\b|\b(?:incomplete|unfinished)(?::| (?:statement|expression|block|input|form|construct|clause|definition|declaration|list|string|(?-i:[A-Z]{2,}\b)))|\b(?:statements?|blocks?|clauses?|loops?|constructs?|expressions?|lists?|strings?|comments?|definitions?|declarations?|bodies|body|forms?|if|case|do|for|while|function) must (?:end|be (?:closed|terminated)) with\b|\bwithout (?:a )?(?:matching|closing|corresponding|terminating)\b|\b(?:extra|trailing|junk|garbage) (?:content|data|input|characters?|tokens?|text|garbage) (?:at|after|before|following)\b|\b(?:extra|trailing|junk|garbage) (?:input|tokens?|characters?)\b|\bnot terminated (?:by|with)\b|\bfound ['\x22`‘]?(?:EOF|end of (?:file|input))\b|\bexpect(?:ed|ing) (?:\w+ or )?(?:semicolon|colon|comma)\b|bad syntax|incorrect syntax|\bbad (?:input|token|character|char|expression|statement|line|form|list)\b|\bneeds? an? (?:operator|operand|separator|delimiter|terminator|colon|semicolon)\b|not well-formed|parse failure|(?:parsing|parser) failed|failed parsing|(?:can't|couldn't) parse|while (?:scanning|parsing|tokeni[sz]ing)\b|mismatched input|extraneous input|no viable alternative|missing (?:(?:right|left|closing|opening|matching|terminating|ending|final) )?(?:semicolon|colon|comma|operand|operator|separator|delimiter|terminator|paren\w*|bracket|brace|curly|quote|block|end|body)\b|(?:missing|expecting) (?:closing|close|terminating|matching|opening|end)[- ]?(?:brace|bracket|paren\w*|quote|delimiter|tag)?\b|lexical error|lexer error|tokeni[sz]er error|(?:semicolon|colon|comma|paren\w*|bracket|brace) (?:needed|required|missing|expected)|unknown (?:statement|keyword|token|directive|character|tag|section|instruction|opcode|mnemonic)\b|unrecognized (?:statement|keyword|token|directive|character|char|input|tag|section|instruction|opcode|mnemonic)\b|\bstray ['\x22`‘]?\S{1,2}['\x22`’]? in program|\bmalformed (?:expression|input|statement|syntax|string|number|literal|token|line|entry|json|yaml|xml|toml)\b|invalid (?:toml|json|yaml|xml|ini|config(?:uration)?) (?:file|document|syntax)|expected (?:an? )?(?:right|left|closing|opening) (?:paren\w*|bracket|brace)",
            r"|invalid (?:token|character|char|escape sequence|indentation)|illegal (?:character|token|start of)|bad indentation|indentation ?error|inconsistent (?:use of tabs|indentation)",
            r"|expect(?:ed|ing) (?:one|any) of\b|expect(?:ed|ing):? (?:to (?:find|see) )?(?:an? )?(?:expression|identifier|statement|declaration|term|operand|token|end of|closing|'[^'\w\s]{1,3}'|\x22[^\x22\w\s]{1,3}\x22|`[^`\w\s]{1,3}`|‘[^’\w\s]{1,3}’|[;:,(){}\[\]<>]{1,2}(?:\s|$))|unexpected [;:,(){}\[\]<>]{1,2}(?:\s|$)",
            r"|(?:^|[\s:])(?:['\x22`‘][;:,.(){}\[\]<>=|]{1,2}['\x22`’]|[;:,.(){}\[\]<>=]{1,2}) expected\b|['\x22`‘][\w;:,.(){}\[\]<>=|]{1,8}['\x22`’] (?:is |was )?expected\b|\bmissing ['\x22`‘]?[;:,(){}\[\]]['\x22`’]?(?:\s|$)|\b(?:declaration|statement|expression|identifier|term|operand)s? (?:or \w+ )?expected\b)"
        )
    };
}

/// A line that says only that a step or a process failed, by its exit
/// status or in as many words (`Process exited with code 1`, `Error:
/// Command failed`): no evidence of any class, whatever hint it holds.
pub(super) const SAYS_NOTHING: &str = r"(?i)\b(?:exit(?:ed)?|exiting) (?:with )?(?:a )?(?:non-?zero )?(?:exit )?(?:code|status)\b|\breturned (?:a )?non-?zero\b|\b(?:process|command|job|step|task|script|subprocess|build) (?:\S+ )?(?:failed|aborted|exited|completed|finished|terminated)\b(?:\W*$| with\b)";

/// The words of a parse error, alone: a cue holding them (a parse error
/// with a position, after an error's label, or alone as a hint) is tried
/// only on a line that has them, since the cues that read a position first
/// have no word a line can be searched for.
pub(super) const PARSE_WORDS: &str = parse_words!();

pub(super) const CUES: &[Row] = &[
    // --- Decisive ---
    // The network: errno names and resolvers, refused and reset connections.
    Row(
        Network,
        Decisive,
        Unnamed,
        r"\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EAI_NONAME|ENETUNREACH|EHOSTUNREACH|ECONNABORTED|ETIMEDOUT|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT)\b|\bgetaddrinfo\b",
    ),
    Row(
        Network,
        Decisive,
        Unnamed,
        r"(?i)could(?: not|n't) resolve (?:host|hostname|proxy|address)|unable to resolve (?:host|hostname|address)|name or service not known|nodename nor servname|temporary failure in name resolution|name resolution (?:failed|failure)|no address associated with (?:host ?name|name)|\bunknown ?host\b|unknownhost|\bhost not found\b|\bhost (?:is )?unreachable\b|name[ _]not[ _]resolved|temporary failure resolving|\bno such host\b|\b(?:host|dns|hostname)[ _-]?(?:resolve|resolution|lookup)\b",
    ),
    Row(
        Network,
        Decisive,
        Unnamed,
        r"(?i)connection[ _](?:refused|reset|timed[ _]out|aborted|closed by (?:remote|peer|foreign))|network (?:is )?unreachable|no route to host|(?:failed|unable) to establish (?:an? |the )?(?:\w+ )?connection|socket hang up|(?:failed|unable) to connect to|could(?: not|n't) connect to|can(?:'|no)t connect to|error connecting to|connection to \S+ failed|attempts? to connect to \S+ failed|internet[ _]disconnected|\bconnect(?:ion)?[ _]?time(?:d[ _]?out|out)\b|timed out (?:while )?(?:connecting|resolving|waiting for (?:the )?(?:server|connection|response))|\btransfer failed\b|could(?: not|n't) transfer\b|\bconnection (?:was )?(?:lost|dropped|interrupted|broken)\b|\bi/o timeout\b|\bread timed out\b|network (?:is )?(?:down|unavailable)",
    ),
    // A package manager that could not reach its registry or repository.
    Row(
        Network,
        Decisive,
        Unnamed,
        r"(?i)(?:failed|unable|could not|couldn't|cannot|can't) (?:to )?(?:update|fetch|download|retrieve|sync|refresh)\b.*\bfrom (?:the )?(?:\w+ )?(?:repo|repository|registry|index|mirror|remote|server)\b",
    ),
    // A registry that has no such name or version: the user's to decide.
    Row(
        Unresolvable,
        Decisive,
        Unnamed,
        r"(?i)no (?:packages?|versions?|distributions?|releases?) (?:exists? |was |were )?(?:found )?(?:with this (?:id|name)|in (?:the )?(?:registry|index|source))|doesn't exist \(could not find package|which doesn't match any versions|no matching (?:version|distribution|package)s? (?:found )?(?:for|named)|conflicting dependencies|dependency conflicts?|could not find compatible versions|resolution ?impossible|version solving failed|could not resolve dependencies|unable to resolve dependency tree|not found in (?:the |any )?(?:registry|registries|package index|repo|repos|repository|repositories)\b|\bnothing match(?:es|ed)\b.*\b(?:in|on|from) (?:the )?(?:remote|registry|repo|repository|index|source)s?\b",
    ),
    Row(
        Unresolvable,
        Decisive,
        Unnamed,
        r"(?i)could(?: not|n't) find (?:a |any )?(?:versions?|releases?|distributions?) (?:that|which|matching|for|of)\b|\bno (?:versions?|releases?) (?:of \S+ )?(?:matching|satisfying|available for|found for)\b",
    ),
    // The machine: memory, disk, file handles, the kernel's killer.
    Row(
        Resource,
        Decisive,
        Unnamed,
        r"(?i)out of memory|out_of_memory|outofmemory|cannot allocate memory|can't allocate (?:memory|region)|(?:memory )?allocation (?:of \d+ bytes )?failed|(?:failed|unable) to allocate|could not allocate|cannot allocate (?:\d|an?\b|vector|array|buffer|memory|block|space)|not enough memory|insufficient memory|memory exhausted|memory limit (?:exceeded|reached)|exceeded (?:the )?memory limit|heap (?:space )?(?:exhausted|limit)|java heap space|out of heap|\bheap (?:overflow|full)\b|\bENOMEM\b|std::bad_alloc|\bMemoryError\b|\boom[- ]?kill|\bresources? exhausted\b|\b(?:memory|heap) allocation (?:error|failure|failed)\b|\b(?:memory|heap|stack|space)\b.*\b(?:allocation|allocate) (?:error|failure|failed)\b|\bgarbage collect(?:ion|or)?\b.*\b(?:fails?|failed|unable|could not|cannot)\b|\b(?:fails?|failed|unable|could not|cannot) to (?:reclaim|free|recover) (?:enough|sufficient)? ?(?:space|memory|heap)\b|\binsufficient (?:heap|stack|workspace|space to (?:allocate|grow))\b|\bGC overhead limit\b|\b(?:heap|memory) (?:size |space |limit )?(?:exceeded|exhausted)\b|(?:cannot|can't|unable to|failed to) create (?:a )?(?:new )?(?:native )?thread|\bVM ?error\b|\bvirtual memory (?:exhausted|error|limit)|(?:errno|os error)[ =:]*12\b",
    ),
    Row(
        Resource,
        Decisive,
        Unnamed,
        r"(?i)no space left on device|\bno ?space ?left\b|\bENOSPC\b|disk quota exceeded|\bEDQUOT\b|(?:disk|device|file ?system|partition|volume) (?:is )?full\b|out of disk space|not enough (?:free )?(?:disk )?space|insufficient (?:disk|storage) space|file size limit exceeded|\bfile too large\b|\bEFBIG\b|(?:errno|os error)[ =:]*28\b",
    ),
    Row(
        Resource,
        Decisive,
        Unnamed,
        r"(?i)too many open files|\bE[MN]FILE\b|file table overflow|too many files open|out of (?:file )?(?:descriptors|handles)|too many (?:open )?(?:file )?(?:handles|descriptors)|(?:errno|os error)[ =:]*24\b|(?:file )?(?:handles|descriptors) exhausted",
    ),
    Row(
        Resource,
        Decisive,
        Unnamed,
        r"(?i)killed signal terminated program|signal: 9, SIGKILL|signal: killed|terminated by signal (?:SIGKILL|9)\b|killed by signal (?:9|SIGKILL)\b|exit (?:code|status) 137\b",
    ),
    // A merge, rebase, update or patch that stopped on conflicting changes, in any version control system.
    Row(
        Conflict,
        Decisive,
        Unnamed,
        r"(?i)\bconflicts? (?:(?:occurred|occurring|arose|arising|happened|found|detected|encountered|reported) )?(?:while|during|when|on|in) (?:the |a )?(?:merg(?:e|ing)|rebas(?:e|ing)|apply(?:ing)?|updat(?:e|ing)|patch(?:ing)?|cherry-pick(?:ing)?|graft(?:ing)?|unshelv(?:e|ing)|pull(?:ing)?|push(?:ing)?|resolv(?:e|ing))|\bautomatic merge failed\b|\b(?:new )?conflicts? (?:appeared|introduced|created)\b|\b(?:merge|text|tree|content|rebase|property|update) conflicts? (?:in|on|at|for|with|encountered|found|detected|discovered)\b|\b[1-9]\d* (?:merge |text |tree )?conflicts? (?:encountered|found|detected|remain)|\bunresolved (?:merge )?conflicts?\b|\b(?:resolve|fix) (?:the |all |any |your |these )?conflicts\b|\bremains? in (?:a )?conflict|\bmerge conflict markers?\b|\bconflict markers? (?:encountered|found|in)\b|\b(?:text|tree|property|merge) conflicts?: [1-9]|\bsummary of conflicts\b|\bconflicts? in the following (?:files|paths)\b|\bhave conflicts\b|\b(?:changed|modified|edited) (?:on|in) both (?:sides|replicas|branches|copies|versions|parents)\b|\bboth (?:sides|replicas|branches) (?:changed|modified)\b",
    ),
    Row(
        Conflict,
        Decisive,
        Unnamed,
        r"(?i)\b(?:local|uncommitted|outstanding) changes\b.*\b(?:would be (?:overwritten|lost|clobbered)|merge|update|rebase|checkout)\b|would be overwritten by (?:merge|checkout|rebase|update|pull)",
    ),
    Row(Conflict, Decisive, Unnamed, r"(?:^|[\s|>:])(?:<{7}|>{7})(?: \S|$)|^\s*\|{7}(?: |$)"),
    // A time limit or a deadline passed.
    Row(
        Timeout,
        Decisive,
        Unnamed,
        r"(?i)\btimed out after\b|\btime ?limit (?:of \S+ )?(?:exceeded|reached|expired)|\breached (?:the |its |an? )?(?:\w+ )?time ?limit\b|\bSIG ?ALRM\b|\bsignal: ALRM\b|exceed(?:ed|s) (?:the |its |a )?(?:time ?limit|timeout|deadline)\b|\btime-?out (?:of )?(?:\S+(?: \w+)? )?(?:exceeded|expired|reached)\b|\bdeadline exceeded\b|\bexecution (?:timed out|expired)\b|\bcpu ?time limit exceeded\b|\bexit (?:code|status):? 124\b|\b(?:ran |run |running )?out of time\b|\bmax(?:imum)? execution time\b.*\bexceeded\b|\bdid not (?:complete|finish|return|respond|terminate|end) (?:with)?in \d",
    ),
    // A module, package, library ... that cannot be found, named as the line says it; an include, not named.
    Row(
        Missing,
        Decisive,
        Unnamed,
        r"(?i)(?:can't|cannot|could not|couldn't|unable to) (?:find|locate|open|read) (?:the )?include(?: lib| file)? ",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to|fails to) (?:find|locate|load|open|import|resolve|read) (?:the )?(?:(?:required|resource|system|external|shared|dynamic|static|imported|referenced|third-party|standard) )?",
            kind!(),
            r"(?: file| specifier)?:? (?:named |called )?",
            name!()
        ),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to|fails to) (?:load|resolve|import) (?:import |module |package )?",
            quoted_name!()
        ),
    ),
    // A file looked for as the one holding a module (`Cannot find file containing module: 'x'`).
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to) (?:find|locate|open|load) (?:the |a |any )?(?:(?:source|module|interface) )?(?:files?|source|sources|definition|interface) (?:containing|defining|declaring|providing|for|of|that (?:defines|declares|provides|contains)) (?:the )?",
            kind!(),
            r"(?: named| called)?:? ",
            name!()
        ),
    ),
    // A name not found in a search path that the next lines list (`Could not find JSON::Fast in:`).
    Row(
        Missing,
        Decisive,
        Said,
        r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to) (?:find|locate|load) ['\x22`‘]?(?P<pkg>[@\w][\w@./:+-]*?)['\x22`’]? (?:in|on|among|anywhere in)(?: (?:any of )?(?:the )?(?:following|these)(?: \w+)?)?:\s*$",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)\b(?:import|",
            kind!(),
            r")\s+",
            name!(),
            r"(?:, (?:required|needed|wanted) by [^,]+,)?\s+(?:is |was |could )?(?:not (?:be )?(?:found|installed|available|present|resolved|satisfied|loaded)|missing|unavailable|unsatisfied|unmet|(?:cannot|can't|could not) be (?:found|resolved|loaded)|does not exist|doesn't exist)\b"
        ),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)\b",
            kind!(),
            r"\((?P<pkg>[\w./:@-]+)\)['\x22`’]?\s+(?:(?:is |was )?not (?:found|installed|available)|does not exist|doesn't exist|(?:cannot|can't|could not) be (?:found|loaded))"
        ),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        r"(?i)(?:cannot|can't|could not|couldn't|unable to|failed to) import (?:from )?(?:an? |the )?(?:undefined|unknown|missing|nonexistent|non-existent|unbound|unavailable) (?:module|package|library|unit)\b",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)\bno (?:such )?", kind!(), r"(?: (?:named|called|for))?:? ", quoted_name!()),
    ),
    Row(Missing, Decisive, Said, concat!(r"(?i)\bno (?:such )?", kind!(), r" (?:named|called) ", name!())),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)\b\w*(?:ModuleNotFound|PackageNotFound|LibraryNotFound|ClassNotFound)(?:Error|Exception)?\b:? ",
            name!()
        ),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)\brequires? (?:the )?(?:\w+ )?",
            kind!(),
            " ",
            name!(),
            r".*\b(?:is|are) (?:missing|not (?:installed|available)|unavailable)|isn't (?:installed|available)"
        ),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)\b(?:no|missing)\b.*\bprovid(?:es?|ing) (?:the )?(?:module|package|library|crate) ", name!()),
    ),
    Row(Missing, Decisive, Said, concat!(r"(?i)\b", kind!(), r" not found:? ", name!())),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)(?:could not|couldn't|cannot|can't|unable to) find ", quoted_name!(), r".*\binstall"),
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)(?:unable to|cannot|can't|could not) resolve (?:class|import) ", name!()),
    ),
    Row(Missing, Decisive, Said, concat!(r"(?i)don't know how to (?:require|load|import|find) ", name!())),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)\bno (?:code|source|file|definition)s? for (?:module|package|library) ", name!()),
    ),
    Row(
        Missing,
        Decisive,
        ModulePath,
        r"(?i)(?:could not|couldn't|can't|cannot|unable to) (?:find|locate|load) \S+ .*?['\x22`‘]?(?P<pkg>[\w./-]+?)['\x22`’]?,? (?:on|in) (?:the |any )?(?:classpath|class path|load path|search path|module path|include path|import path|@\w+\b|\$\w+)",
    ),
    Row(
        Missing,
        Decisive,
        ModulePath,
        r"(?i)expected ['\x22`‘](?P<pkg>[\w./-]+)['\x22`’](?: or ['\x22`‘][^'\x22`’]+['\x22`’])* in (?:one of )?(?:the )?(?:following )?(?:import|include|search|load|module|library) (?:paths?|folders?|directories)",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(r"(?i)need to install (?:the )?", name!(), r" (?:module|package|library|gem|crate)\b"),
    ),
    Row(
        Missing,
        Decisive,
        Unnamed,
        r"(?i)\bmissing required (?:provider|module|package|library|plugin|dependency|extension)",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        r"(?i)['\x22`‘]?(?P<pkg>[@\w][\w@./:+-]*?)['\x22`’]? (?:is |are )?(?:required|needed) but (?:was |is |are )?(?:not (?:found|installed|available)|missing)",
    ),
    Row(
        Missing,
        Decisive,
        Said,
        concat!(
            r"(?i)\b(?:following |these )?",
            kind!(),
            r" (?:are |is |were |was )?(?:missing|not installed|not available|not found):\s*",
            name!()
        ),
    ),
    // The module's name on a line of its own, after this one.
    Row(Missing, Decisive, Said, concat!(r"(?i)\b", kind!(), r" (?:was |were )?not found\b")),
    // What a build needs that is a file, not a package: a header, a linked library, a program.
    Row(
        Missing,
        Decisive,
        Unnamed,
        r#"(?i)(?:header|include) file ['"`‘]?\S+?['"`’]? (?:was )?not found|['"`‘][\w./+-]+\.(?:h|hh|hpp|hxx|inc)['"`’] (?:file )?not found|cannot (?:open|find) (?:include|header) file|(?:cannot|can't|could not|couldn't|unable to|failed to) (?:find|open|locate|include|import) (?:the )?(?:include |interface |header |library )?(?:file )?['"`‘]?[\w./+-]+\.(?:h|hh|hpp|hxx|inc|i|swg|idl|pxd|pxi|di|mli|hi|fbs|proto|capnp|thrift|mzn|td|sig)['"`’]?(?:\s|$|[,.:;])|[\w./+-]+\.(?:h|hh|hpp|hxx): no such file or directory|cannot find -l\S+|library not found for -l|cannot open shared object file|error while loading shared libraries"#,
    ),
    Row(
        Missing,
        Decisive,
        Unnamed,
        r#"(?i)\bcommand not found\b|(?:command|program|executable|binary|compiler|interpreter|tool) ['"`‘]?[\w./+-]+['"`’]? (?:was |is )?not (?:found|installed)|\b[\w.+-]+ (?:executable|program|binary|compiler|interpreter) (?:was |is )?not (?:found|installed)\b|(?:executable|binary|program|command) (?:\S+ )?(?:doesn't|does not) exist|not found in (?:\$?PATH|path)|is not recognized as an internal or external command|spawn \S+ ENOENT|executable file not found"#,
    ),
    // --- Clear ---
    Row(
        Network,
        Clear,
        Unnamed,
        r"(?i)\bssl (?:handshake|connect(?:ion)?) (?:error|failed)|\btls handshake (?:timeout|failure|failed)|certificate verify failed|unable to get local issuer certificate|self[- ]signed certificate|\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b|\bnetwork error\b|\bsocket ?(?:error|exception)\b|\bdial (?:tcp|udp)\d?\b|\bfetch failed\b|\bproxy error\b|\b407 Proxy|\bfailed (?:downloading|to download|to fetch|fetching) (?:https?|ftp)://|(?:failed|unable|could not|couldn't|cannot|can't|error) (?:to |while |when )?(?:load|fetch|download|open|get|retrieve|read|access|reach|connect|request)\w*\b.*?(?:https?|ftp)://|\b(?:you are|you're|appears? to be|is|are) offline\b|\bno (?:internet|network) (?:connection|access)\b|\bnot connected to (?:the )?(?:internet|network)\b|\bconnection (?:attempt )?failed\b|(?:could not|couldn't|unable to|failed to|cannot|can't) (?:download|fetch|retrieve)\b|(?:failed|unable) to reach\b",
    ),
    Row(
        Resource,
        Clear,
        Unnamed,
        r"(?i)resource temporarily unavailable|\bEAGAIN\b|can(?:'|no)t fork|\bfork(?:\(\))?: (?:retry|resource)|fork failed|too many processes|\bRLIMIT_\w+|resource limit (?:exceeded|reached)|\b(?:could not|couldn't|cannot|can't|unable to|failed to|error) (?:write|writing|seek|seeking|set (?:the )?file position|flush|flushing|extend|grow)\b(?: \w+){0,3} (?:on |to |in )?(?:the )?(?:output|object|disk)\b|\b(?:write|short write) (?:error|failed) (?:on|to|in) (?:the )?(?:output|object|disk)\b",
    ),
    // Memory a tool reports the size of as it fails, or asks to be given more of (`current stack size: 1000000`).
    Row(
        Resource,
        Clear,
        Unnamed,
        r"(?i)\b(?:current|maximum|max|allocated|available) (?:stack|heap|memory|arena|pool|workspace) size\b|\b(?:increase|raise|enlarge|extend) (?:the )?(?:\w+ )?(?:stack|heap|memory|arena|pool|workspace) (?:size|limit)\b|\b(?:stack|heap|memory|arena|pool|workspace) (?:overflows|overflowed|is too small)\b|\b(?:memory|heap)\b(?: \w+){0,4} (?:exhausted|exceeded)\b",
    ),
    Row(Resource, Clear, Unnamed, r"^Killed$|: \d+ Killed\b|\bKilled {2,}\S|^Killed\b|(?i)[(\[{,]\s*:?killed\s*[)\]}]"),
    Row(
        Conflict,
        Clear,
        Unnamed,
        r"(?i)\bmerge conflicts?\b|\bconflicting changes\b|\bhunks? (?:#?\d+ )?(?:FAILED|failed to apply|(?:does|did) not apply|not applied|could not be applied|NOT MERGED|ignored)\b|\b\d+ (?:out )?of \d+ hunks? (?:FAILED|failed|ignored|rejected|not applied)\b|\bpatch (?:does not|doesn't) apply\b|\bfailed to apply (?:the )?(?:patch|changes?|commit)|\b(?:there (?:were|are)|with|has|had) (?:\d+ )?(?:unresolved )?conflicts?\b|\boverlapping (?:changes|hunks|edits)\b|\brejects? (?:saved|written) to\b|\bsaving rejects\b|\b(?:hunks?|changes?|patch(?:es)?) (?:were |was )?rejected\b|\brejects? in file\b|\bpatch failed\b|\b[1-9]\d* conflicting\b|\bboth (?:modified|added|deleted):|(?-i:\bCONFLICT\b)|\bmerge failed\b|\b(?:file|path|directory|item) ['\x22‘][^'\x22’]+['\x22’] is out of date\b|^\W*conflict(?:s|ed)?(?: \(\w+\))?:? (?:in |on )?\S+\.\w+",
    ),
    Row(
        Timeout,
        Clear,
        Unnamed,
        r"\bTimeout(?:Error|Exception)\b|(?i)\b(?:test|tests|case|step|job|task|operation|command|request|query|statement|process|build|hook|suite|spec|example|script|session) (?:has )?timed out\b|\btook (?:too long|longer than|more than)\b|\balarm clock\b|\b(?:failed|error|killed|aborted|terminated|cancell?ed|canceling|cancell?ing|stopped)\b\W+(?:\w+ ){0,3}?(?:due to|because of|on|after|with|by) (?:an? |the )?(?:\w+ )?time-?out\b|\b(?:failed|error)\W+time-?out\b|\btime-?out\s*(?:>|(?:after|expired|exceeded|reached|while|waiting)\b)|\bexceeded (?:the )?\d+(?:\.\d+)? ?(?:s|ms|sec|secs|seconds?|minutes?)\b|\b(?:killed|terminated|aborted|stopped|cancell?ed|interrupt(?:ed)?) after \d+(?:\.\d+)? ?(?:s|ms|sec|secs|seconds?|minutes?|m)\b|\balarm (?:interrupt|signal|expired|fired|went off|triggered)\b",
    ),
    // A linter's finding of a missing docstring or comment (`Missing module docstring`), no module missing.
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\bmissing (?:\w+ )?(?:docstring|documentation|doc ?comment|comment|description|license|copyright)s?\b",
    ),
    Row(
        Missing,
        Clear,
        Said,
        concat!(
            r"(?i)\b(?:unknown|unbound|undefined|undeclared|unresolved|missing|unavailable|unrecognized) (?:(?:module|package|library|unit|import|crate|collection)s? or )?(?:module|package|library|unit|import|crate|collection)s?:? ",
            name!()
        ),
    ),
    Row(Missing, Clear, Unnamed, r"^(?:\S+: )?(?:line )?(?:\d+: )?[a-z0-9_./-]+: (?:command )?not found$"),
    // A program that is not there: a shell's unknown command, a tool's `prog: No such file or directory` of a bare
    // name, the status 127 a shell gives it (`*** [all] Error 127`).
    Row(
        Missing,
        Clear,
        Unnamed,
        r"(?i)^(?:[\w.-]+: )?(?:unknown|unrecognized) (?:command|program|executable)s?:\s*[\w./+-]+\s*$|^[\w.-]+: (?:line \d+: )?[A-Za-z][\w+-]*: (?:No such file or directory|not found)\s*$|\berror:? 127\b|\bexit(?:ed)? (?:with )?(?:code|status):? 127\b|\breturned 127\b",
    ),
    // A quoted name that was not found, first on the line or after an error's label (`FileError: 'x' wasn't found`).
    Row(
        Missing,
        Clear,
        File,
        concat!(
            r"^\W*(?:[\w.-]+: )?(?:\w*(?:Error|error|ERROR|Exception)\w*:?\s+)?",
            quoted_name!(),
            r" (?:was not|wasn't|could not be|couldn't be|cannot be|can't be|is not|isn't) found\b"
        ),
    ),
    // The file a directive names that cannot be found (`failed to locate @require file nib.styl`).
    Row(
        Missing,
        Clear,
        File,
        concat!(
            r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to) (?:find|locate|load|open|resolve|read) @?(?:require|import|include|use|load|plugin|source)d? (?:file|module|path|target)?:?\s*",
            bare_file!()
        ),
    ),
    // A file a compiler looked for by a module's name (`cannot open file: jester`, `file "aws.ads" not found`).
    Row(
        Missing,
        Clear,
        File,
        concat!(
            r"(?i)(?:cannot|can't|could ?not|couldn't|unable to|failed to) (?:find|open|read|locate|load|resolve|link)(?: (?:a |the )?(?:reference|link) to)? (?:the )?(?:source |module |unit |interface |library |object )?file:? ",
            bare_file!()
        ),
    ),
    Row(Missing, Clear, File, concat!(r"(?i)\bfile ", bare_file!(), r"(?:was )?not found\b")),
    Row(
        Missing,
        Clear,
        Said,
        concat!(
            r"(?i)(?:^\W*|:\s*)(?:missing|unmet|unsatisfied|unresolved|failed) (?:build |run-?time |install |test )?(?:dependenc(?:y|ies)|requirements?|prerequisites?)(?: for \S+)?:\s*",
            name!()
        ),
    ),
    Row(
        Missing,
        Clear,
        Said,
        r"(?i)(?:^\W*|:\s*)(?:missing|unmet|unsatisfied|unresolved|failed) (?:build |run-?time |install |test )?(?:dependenc(?:y|ies)|requirements?|prerequisites?)(?: for \S+)?:\s*$",
    ),
    Row(
        Missing,
        Clear,
        Said,
        r"(?i)^\W*['\x22`‘]?(?P<pkg>[@\w][\w@.+-]*?)['\x22`’]?(?: [(<>=][^)]*\)?| [<>=]+ ?\S+)? (?:is|are) (?:needed|required|wanted) by\b",
    ),
    Row(Missing, Clear, Said, concat!(quoted_name!(), r" (?:is|was|are) not (?:installed|available)\b")),
    Row(
        Missing,
        Clear,
        Said,
        r"(?i)\berror:\s+(?:the )?(?:required )?['\x22`‘]?(?P<pkg>[\w@+.-]+)['\x22`’]? (?:library|package|module) (?:was |is )?not found",
    ),
    Row(
        Missing,
        Clear,
        Unnamed,
        r"(?i)\b(?:requirements?|dependenc(?:y|ies)|prerequisites?) (?:\(.*\) )?(?:were |was |are |is )?not (?:met|satisfied)\b",
    ),
    // A qualified name that cannot be found: its package is not there (`Type not found : haxe.ui.Toolkit`).
    Row(
        Missing,
        Clear,
        Said,
        r"(?i:\b(?:type|class|symbol|unit|module|namespace|interface|trait|object)s? (?:was )?not found)\s*:?\s*['\x22`‘]?(?P<pkg>[a-z][a-z0-9_]*(?:\.[A-Za-z_]\w*)+)",
    ),
    Row(
        Missing,
        Clear,
        Said,
        concat!(
            r"(?i)\b(?:please|you (?:must|need to|should)) install (?:the )?(?:missing )?(?:",
            kind!(),
            r" )?",
            quoted_name!()
        ),
    ),
    // A parse error: its words with a position, or after an error's label.
    Row(Syntax, Clear, Unnamed, concat!(parse_words!(), ".*", position!(), "|", position!(), ".*", parse_words!())),
    Row(
        Syntax,
        Clear,
        Unnamed,
        concat!(
            r"^\W*(?:\S+: )?(?i:fatal )?(?:error|Error|ERROR|(?i:exception))\b.*",
            parse_words!(),
            r"|^\W*(?:[\w.-]+: )?",
            parse_words!()
        ),
    ),
    // A test summary with failures, a failed assertion, TAP's `not ok`.
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\b[1-9]\d* (?:(?:out )?of \d+ )?(?:tests?|specs?|examples?|scenarios?|cases?|test cases?|testcases?|checks?|assertions?|expectations?|properties|subtests?|suites?) (?:have |has )?(?:failed|failing|failures?|errored)\b|\b(?:failed|failures?|failing)\s*[:=]\s*[1-9]\d*|\b[1-9]\d* (?:failed|failing|failures?)\b|\b[1-9]\d*\s*/\s*\d+ (?:tests?|specs?|checks?|cases?|examples?|assertions?|scenarios?) (?:failed|failing)\b|\b(?:result|status|outcome|verdict)\s*[:=]\s*(?-i:FAIL|FAILED|FAILURE)\b|(?-i:\|\s*(?:FAIL|FAILED)\s*\|)|\b\d+ (?:passed|passing)\b.*\b[1-9]\d* (?:errors?|errored)\b|\b[1-9]\d* (?:errors?|errored)\b.*\b\d+ (?:passed|passing)\b",
    ),
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\btests? (?:have )?failed\b|\bfailed tests?\b|\b(?:unit ?)?test failures?\b|\bFAILED (?:unit ?)?tests?\b|\btest suite failed\b|\btests? did not pass\b|\bassertion (?:failed|error)\b|\bAssertionError\b|\bassert(?:ion)?\b.* failed\b",
    ),
    Row(
        Validation,
        Clear,
        Unnamed,
        r"^\s*not ok \d+|^\s*(?:FAIL|FAILED|FAILURES)\b|(?i)^\s*(?:[^\sA-Za-z0-9]+\s+)?(?:fail|failed|failures?|failing)\s*[:=]?\s*[1-9]\d*\s*$|^\s*(?:[^\sA-Za-z0-9]+\s+)?[1-9]\d* (?:fail|failed|failing|failures?)\s*$|^\s*(?:expected|actual|received)\s*:|\bexpect\(.*\)\.(?:to|not)\w*\(|(?-i)\.\.\. ?(?:FAIL|FAILED|failed|ERROR)$|^#\s+fail(?:ed)?\s+[1-9]|(?i)\bfailed [1-9]\d*/\d+\b|\bexpected\b.*\bto (?:equal|be|match|contain|have|include|throw)\b|\bbut (?:was|got)\b|(?-i:\[\s*(?:FAIL|FAILED|FAILURE|NOT OK)\s*\]|\((?:FAIL|FAILED)\)|^\s*Failures?:\s*$)|^\s*[✗✘✖❌]\s+\S|(?-i:(?:^|\s)[^\sA-Z]\S*\s+(?:FAIL|FAILED)\s*$|\bFAIL\s+[1-9]\d*\b)|\bAssert\w*(?:Error|Exception|Failure|Failed)\b|\berrors\s*[:=]\s*[1-9]",
    ),
    // A linter's count, a formatter's refusal.
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\b[1-9]\d* (?:errors?|problems?|issues?|warnings?|violations?|offen[cs]es?|findings?|defects?|lint errors?)(?: \(| found| detected| reported| generated| in \d+ files?|,|\.?$| and \d)|\bfound [1-9]\d* (?:errors?|problems?|issues?|violations?)|\b(?:lint|linting|style|format(?:ting)?) (?:errors?|failed|failures?|violations?|issues?)\b|\(severity:? ?\d+\)|\[severity:? ?\w+\]|\btotal (?:errors?|warnings?|problems?|issues?|violations?|findings?)(?: found| reported| detected)?\s*[:=]\s*[1-9]|\b(?:errors?|warnings?|problems?|issues?|violations?|findings?) (?:found|detected|reported)\s*[:=]\s*[1-9]|\bwould (?:be )?reformat|\bnot (?:properly )?formatted\b|\b(?:incorrectly|badly|improperly) formatted\b|\bneeds? (?:re)?formatting\b|\b[1-9]\d* (?:error|warning)\(s\)",
    ),
    // A type error, an unknown name, a constraint violated.
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\btype[ -]?error\b|\bwrong[ -]type\b|\bis not of type\b|\bexpected of type\b|\bhas type\b.*\bbut\b|\bexpected type\b|\btype mismatch\b|\bmismatched types\b|\bincompatible types?\b|\bis not assignable to\b|\bcannot (?:be )?convert\b|\bno matching (?:function|overload|method)|\bwrong (?:number|type) of arguments?|\btoo (?:many|few) arguments|\bundefined (?:variable|reference|identifier|symbol|name|function|method|constant|local)\b|\bundeclared\b|\bunresolved (?:reference|name|identifier|symbol)\b|\b(?:is|was) not (?:defined|declared)\b|\bnot in scope\b|\bunbound (?:value|variable|identifier|symbol)\b|\bunknown (?:identifier|variable|symbol|function|method|field|property|attribute)\b|\bhas no (?:attribute|member|field|property|method)\b|\bcannot find (?:symbol|name|value|function|method|type)\b|\bconstraint (?:failed|violation|violated)|\bviolates \w+(?: \w+)? constraint|\bno (?:such )?(?:member|method|field|function|procedure|attribute|property|variable|symbol)\b|\bnot a member of\b|\bis not (?:a function|callable|iterable)\b|\bcannot (?:unify|match)\b|\bcouldn't match\b|\bdoes not match (?:the )?(?:expected )?type\b|\bunknown (?:type|name|reference|class|record|struct)\b|\bcannot resolve (?:symbol|name|reference|method|type)\b|\bis not an? (?:pair|number|list|string|symbol|procedure|vector|integer|boolean|character|table|array|object|map|record|sequence|class|type)\b|\bnot an? valid (?:value|\w+) (?:of|for)\b|\bnot (?:defined|declared)\b|\b(?:does not|doesn't|doesNot) ?understand\b|\b(?:invalid|unknown) (?:command|procedure|function) name\b|\bundefined word\b|\bvalidity error\b|\bschema (?:validation|validity)\b|\bfails to validate\b|\bis not (?:of )?the (?:correct|right|expected|proper) type\b|\b(?:passed|given) as the \w+ argument (?:to|of)\b|\b(?:number|integer|string|list|symbol|value|argument|boolean|pair|cons|atom|float|numeric|character|array|vector|table|procedure|function) expected (?:in|for|as|but|,|;|$)|(?:--|:) (?:an? )?(?:number|integer|string|list|symbol|boolean|pair|cons|atom|float|numeric value|character|array|vector|table) expected\b|\bmust be an? (?:integer|number|string|boolean|float|decimal|date|list|array|object|valid|positive|non-negative)\b|\b(?:element|attribute|content|value) (?:of (?:element|attribute) \S+ )?(?:is )?(?:invalid|not allowed|not expected)\b|\b(?:is|are) untyped\b|\bhas no (?:declared )?type\b|\bdivi(?:sion|ded|de) by zero\b|\bzero ?divi(?:sion|sor)\b|\bimpossible (?:inverse|division)\b|\bnot invertible\b|\b(?:index|subscript|offset)\b.*\b(?:out of (?:range|bounds)|beyond (?:the )?(?:\w+ )?(?:bounds|end|length|size)|overreach)|\bout of bounds\b|\b(?:array|index) bounds\b|\bcannot (?:be )?(?:cast|coerce)\b|\bClassCastException\b|\b(?:parameter|variable) (?:is )?(?:not set|unset|null or not set)\b",
    ),
    // An error at a position in a data file, which has no types or names to get wrong, only its syntax (a
    // schema's refusal is a type error, above).
    Row(
        Syntax,
        Clear,
        Unnamed,
        r"[\w/.~-]*[A-Za-z_][\w-]*\.(?:json[c5]?|ya?ml|toml|xml|ini|plist)(?::\d+(?:[:.]\d+)?|\(\d+(?:[,:] ?\d+)*\)|\x22?[,:;]? (?:on |at |in )?(?i:line) \d+)\b.*\b(?:error|Error|ERROR)\b",
    ),
    // A diagnostic at a position in a file: the code does not compile or lint.
    Row(
        Validation,
        Clear,
        Unnamed,
        concat!(
            r"(?:error|Error|ERROR|warning|Warning|WARNING|WARN)\b.*",
            file_position!(),
            "|",
            file_position!(),
            r".*\b(?:error|Error|ERROR)\b|^\s*[eE]: ",
            file_position!(),
            r"|\b(?:error|Error|ERROR)[ :\[]+[A-Z]{1,4}\d{2,5}\b|(?:error|Error|ERROR)\b.*\bline \d+|^\s*\d+:\d+\s+(?:error|warning)\s|(?i:\bline \d+,? col(?:umn)? \d+\b.*\b(?:error|warning)\b)",
            "|",
            file_position!(),
            r":?\s*(?:\w+:\s*)?(?:\(?[A-Z]{1,4}\d{2,5}\)?|warning|Warning|WARNING)\b",
            r"|^\W*[\w/.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}:\s*(?i:fatal )?(?:error|Error|ERROR)\b",
            r"|(?:^|\s)[\w/.~-]*\w:\d+(?::\d+)?:\s*(?:ERROR|WARNING|[Ee]rror|[Ww]arning)\b|\b[A-Z]{1,4}\d{2,5}\s*[(\[]warning[)\]]"
        ),
    ),
    // A check the code or the data fails, in its own words (`could not balance`, `Balance failed for`).
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\b(?:could not|couldn't|cannot|can't|unable to|failed to|does not|doesn't|did not) (?:balance|reconcile|verify|validate|satisfy|type-?check|prove)\b|\b(?:balance|check|assertion|verification|validation|consistency check|invariant|precondition|postcondition|contract|constraint|requirement|proof)s? (?:has |have )?(?:failed|failure|violated|not satisfied|does not hold|not met)\b",
    ),
    // A finding's own label, as a linter or a scanner prints it (`>> Issue: [B602]`, `Severity: High`).
    Row(
        Validation,
        Clear,
        Unnamed,
        r"^\W*(?:Issue|Finding|Problem|Violation|Vulnerability|Weakness|Defect|Smell|Offen[cs]e)s?\s*(?::\s*\S|\[)|(?i:^\s*severity\s*:\s*(?:low|medium|high|critical|major|minor|error|warning)\b)",
    ),
    // A step that checks or tests exited with an error (`Bad exit status from ... (%check)`).
    Row(
        Validation,
        Clear,
        Unnamed,
        r"(?i)\b(?:bad|non-?zero|failed|unexpected) exit (?:status|code)\b.*[(\[]\s*%?(?:check|checks|test|tests)\s*[)\]]|\b(?:check|test)s? (?:step|stage|phase|section) failed\b",
    ),
    // --- Hints: words that may as well be quoted ---
    Row(Unresolvable, Hint, Unnamed, r"\b404 Not Found\b|(?i:\b(?:HTTP|status|code)\W{0,3}404\b)"),
    Row(Syntax, Hint, Unnamed, parse_words!()),
    Row(
        Timeout,
        Clear,
        Unnamed,
        r"\[\s*TIME ?OUT\s*\]|(?:^|[\s|:(])TIME ?OUT(?:[\s|:)!]|$)|(?i:[(\[]\s*time-?out\s*[)\]]|\*{3}\s*time-?out\b|^\W*(?:time-?out|timed out|time limit(?: exceeded| reached)?)\W*$)",
    ),
    // A solver that stopped without an answer, which is what its own time limit leaves (`=====UNKNOWN=====`, `s UNKNOWN`).
    Row(Timeout, Clear, Unnamed, r"^\s*(?:={3,}\s*(?:UNKNOWN|INDETERMINATE)\s*={3,}|s (?:UNKNOWN|INDETERMINATE))\s*$"),
    Row(Timeout, Hint, Unnamed, r"(?i)\btimed out\b|timeout\b|\btime ?limit\b|\bcpu ?(?:time ?)?limit\b"),
    Row(
        Missing,
        Hint,
        Unnamed,
        r"(?i)\bnot installed\b|\bmodule not found\b|\bno such (?:module|package|library)\b|\b(?:missing|unmet|unsatisfied) (?:dependency|dependencies|requirements?|prerequisites?)\b|but it is not (?:installed|going to be installed)",
    ),
    Row(
        Validation,
        Hint,
        Unnamed,
        r"(?:Uncaught|Unhandled) (?:exception|\w*(?:Error|Exception))|Traceback \(most recent call last\)|^\s*(?:[\w$]+\.)*[\w$]+(?:Error|Exception)(?::|$)|\bpanic(?:ked)?\b|(?i)\brun-?time error\b|\bstack overflow\b|\bmaximum recursion depth\b|^\W*(?:uncaught |unhandled )?exception\b|\bfatal error\b|\bcompilation (?:failed|error)|\bcould not compile\b|\bfailed to compile\b|^\s*(?:error|ERROR)\[\w+\]: \S",
    ),
    Row(Validation, Hint, Unnamed, r"^\s*[\w/.-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,5}:\d+:(?:\d+:)?\s+\S"),
    // An exception thrown (`Script threw exception:`, `java.lang.ClassCastException`), errors found in what was
    // checked or loaded (`Fatal errors found in configuration`, `not loaded due to errors`), a log's severity
    // label (`[ALERT]`, `[emerg]`), a runtime's error marker (`*** `).
    Row(
        Validation,
        Hint,
        Unnamed,
        r"(?i)\b(?:threw|thrown|raised) (?:an? )?(?:\w+ )?(?:exception|error)\b|(?-i:\b(?:[a-z]\w*\.)+[A-Z]\w*(?:Exception|Error)\b)|\b(?:fatal )?errors? (?:were |was )?(?:found|detected|reported|encountered) (?:in|while|during)\b|\b(?:due to|because of) (?:\w+ )?errors?\b|\[\s*(?:error|err|fatal|alert|emerg|emergency|crit|critical|severe)\s*\]|^\s*\*{3}\s+\S",
    ),
    // A line that shows an error: an error's label at its start (`ERR:`, `ERROR -`, `;Error`, `tool: Error occurred`),
    // or a position in a file that starts it (`[a.l:1]`, `a.beancount:8:`, `tool: e - line 4 of "a.y"`). Whatever
    // else the output says, a failed check is likelier than nothing said.
    Row(
        Validation,
        Hint,
        Unnamed,
        concat!(
            r"^\W*(?:[\w.-]+: )?(?:ERR|ERROR|Error|error|(?i:fatal error))(?:\s*(?:[:!\-]|\d{1,5}\b)|\s+(?:occurred|encountered|in|at)\b)",
            r"|^[\[(]?[\w/.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,12}:\d+(?::\d+)?[\])]?:?\s+\S",
            r"|^[\w.-]+:\s+\w{1,8} - ",
            position!(),
            r"|^\W*(?:ERROR|FATAL|ERR)\s+\S|^[\w.-]+: [\w/.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,12}:\d+(?::\d+)?:?\s+\S",
            r"|(?i:\b(?:bad|invalid|illegal|wrong|incorrect|unsupported|duplicate|conflicting)\b).*",
            position!()
        ),
    ),
    // A unified diff's hunk: a formatter's changes, or a test's expected and actual output.
    Row(Validation, Hint, Unnamed, r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|^Diff in \S+ at line \d+:?$"),
];

/// Words that make a program or a subcommand a check: a test runner, a
/// linter, a type checker (`run-tests.sh`, `luacheck`, `cppcheck`,
/// `stylelint`, `foo test`, `foo spec`, `foo lint`, `make typecheck`).
const CHECK_WORDS: &[&str] = &[
    "test",
    "tests",
    "spec",
    "specs",
    "check",
    "checks",
    "lint",
    "verify",
    "validate",
    "vet",
    "typecheck",
    "analyze",
    "analyse",
];

/// The endings of a program's name that make it a check (`shellcheck`,
/// `eslint`, `perlcritic`, `clang-tidy`).
const CHECK_ENDINGS: &[&str] = &["check", "lint", "critic", "tidy"];

/// The generic rule for a validation command that the command table does
/// not name: a part of it runs a program whose name says it checks
/// (`run-tests.sh`, `luacheck`, `cppcheck`), or a program given a
/// subcommand, goal or path that does (`zig build test`, `dune test`,
/// `crystal spec`, `julia test/runtests.jl`, `make typecheck`).
pub(super) fn looks_like_a_check(command: &str) -> bool {
    let says = |word: &str, endings: bool| {
        word.to_ascii_lowercase().split(['-', '_', '.', '/', ':']).any(|part| {
            let part = part.strip_prefix("run").filter(|p| !p.is_empty()).unwrap_or(part);
            CHECK_WORDS.contains(&part) || (endings && CHECK_ENDINGS.iter().any(|e| part.ends_with(e)))
        })
    };
    any_part(command, |program, rest| {
        let mut positional = rest.iter().take_while(|w| **w != "--").filter(|w| !w.starts_with(['-', '+']));
        !program.is_empty() && (says(program, true) || positional.any(|w| says(w, false)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_whose_words_say_it_checks_is_a_check() {
        for (command, want) in [
            ("./run-tests.sh", true),
            ("zig build test", true),
            ("dune test", true),
            ("nimble test", true),
            ("crystal spec", true),
            ("luacheck src", true),
            ("cppcheck --error-exitcode=1 src", true),
            ("npx stylelint 'src/**/*.css'", true),
            ("sh -c \"npm run lint\"", true),
            ("make typecheck", true),
            ("./scripts/check-links.sh", true),
            ("perlcritic lib", true),
            ("clang-tidy src/main.c", true),
            ("./scripts/build-assets.sh", false),
            ("npm run build", false),
            ("make", false),
            ("cargo run -- test", false),
            ("git checkout main", false),
            ("python scripts/seed.py", false),
            ("terraform apply", false),
            ("latest-release.sh", false),
            ("julia test/runtests.jl", true),
            ("bin/runtests", true),
            ("./deploy.sh staging", false),
            ("", false),
        ] {
            assert_eq!(looks_like_a_check(command), want, "{command:?}");
        }
    }
}
