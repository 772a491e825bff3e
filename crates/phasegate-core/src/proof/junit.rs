//! JUnit XML, as pytest (`--junitxml`), jest-junit, cargo nextest, Maven
//! Surefire and go-junit-report write it: `<testsuites>` of `<testsuite>`s
//! of `<testcase name classname time>`, a case failed by a `<failure>` or
//! `<error>` child and skipped by `<skipped>`. Read with quick-xml; pure.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use super::ledger::{TestCase, TestStatus};

/// At most this many cases are kept per report (failed ones first); the
/// rest are counted.
pub const MAX_CASES: usize = 500;

/// What a report lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub cases: Vec<TestCase>,
    /// Cases left out of `cases`.
    pub omitted: usize,
    /// Of those, how many failed.
    pub omitted_failed: usize,
}

/// The cases of a report: every failed one and the others up to
/// [`MAX_CASES`] in all, and how many more there were.
pub fn test_cases(xml: &str) -> Result<Report, String> {
    let mut reader = Reader::from_str(xml);
    let mut report = Report::default();
    let mut current: Option<TestCase> = None;
    let mut suites = 0;
    // Open elements: a report that ends inside one was cut short (a
    // runner killed mid-write), and what it left out may be a failure.
    let mut open: Vec<Vec<u8>> = Vec::new();
    loop {
        let event =
            reader.read_event().map_err(|e| format!("not well-formed XML at byte {}: {e}", reader.error_position()))?;
        match &event {
            Event::Start(e) => open.push(e.local_name().as_ref().to_vec()),
            Event::End(_) => {
                open.pop();
            }
            _ => {}
        }
        match event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"testsuite" => suites += 1,
            Event::Start(e) if e.local_name().as_ref() == b"testcase" => current = Some(case(&e)?),
            Event::Empty(e) if e.local_name().as_ref() == b"testcase" => report.push(case(&e)?),
            Event::Start(e) | Event::Empty(e) => {
                if let Some(c) = current.as_mut() {
                    match e.local_name().as_ref() {
                        b"failure" => c.status = TestStatus::Failed,
                        b"error" => c.status = TestStatus::Error,
                        b"skipped" if !c.status.failed() => c.status = TestStatus::Skipped,
                        _ => {}
                    }
                }
            }
            Event::End(e) if e.local_name().as_ref() == b"testcase" => {
                if let Some(c) = current.take() {
                    report.push(c);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some(inside) = open.last() {
        return Err(format!(
            "it is cut short: it ends inside <{}> (the runner may have stopped while writing it)",
            String::from_utf8_lossy(inside)
        ));
    }
    if suites == 0 && report.cases.is_empty() && report.omitted == 0 {
        return Err("no <testsuite> or <testcase> in it: not a JUnit report".to_owned());
    }
    Ok(report)
}

impl Report {
    fn push(&mut self, c: TestCase) {
        if self.cases.len() < MAX_CASES {
            return self.cases.push(c);
        }
        // Full: a failed case takes the place of a passed one.
        if c.status.failed()
            && let Some(i) = self.cases.iter().rposition(|k| !k.status.failed())
        {
            self.cases.remove(i);
            self.cases.push(c);
            self.omitted += 1;
            return;
        }
        self.omitted += 1;
        self.omitted_failed += usize::from(c.status.failed());
    }
}

fn case(e: &BytesStart<'_>) -> Result<TestCase, String> {
    let mut c = TestCase { name: String::new(), classname: None, status: TestStatus::Passed, time_ms: None };
    for a in e.attributes() {
        let a = a.map_err(|e| format!("a <testcase> attribute is malformed: {e}"))?;
        let value = a.unescape_value().map_err(|e| format!("a <testcase> attribute is malformed: {e}"))?.into_owned();
        match a.key.local_name().as_ref() {
            b"name" => c.name = value,
            b"classname" => c.classname = Some(value).filter(|v| !v.is_empty()),
            b"time" => {
                c.time_ms = value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && *t >= 0.0)
                    .map(|t| (t * 1000.0).round() as u64)
            }
            _ => {}
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: a report cut short inside a failed case read as passing.
    #[test]
    fn a_report_cut_short_or_with_an_unknown_entity_is_an_error() {
        let cut = test_cases("<testsuite><testcase name=\"a\"><failure/>").unwrap_err();
        assert!(cut.contains("cut short") && cut.contains("<testcase>"), "{cut}");
        assert!(test_cases("<testsuite><testcase name=\"&bogus;\"/></testsuite>").is_err());
    }

    #[test]
    fn reports_of_the_common_runners() {
        // pytest --junitxml
        let pytest = r#"<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="3"><testcase classname="tests.test_search" name="test_case" time="0.004" /><testcase classname="tests.test_search" name="test_page" time="0.010"><failure message="assert 1 == 2">def test_page(): ...</failure></testcase><testcase classname="tests.test_search" name="test_slow" time="0.000"><skipped type="pytest.skip" message="slow">skipped</skipped></testcase></testsuite></testsuites>"#;
        let Report { cases, omitted, .. } = test_cases(pytest).unwrap();
        let got: Vec<(&str, TestStatus, Option<u64>)> =
            cases.iter().map(|c| (c.name.as_str(), c.status, c.time_ms)).collect();
        assert_eq!(
            got,
            [
                ("test_case", TestStatus::Passed, Some(4)),
                ("test_page", TestStatus::Failed, Some(10)),
                ("test_slow", TestStatus::Skipped, Some(0))
            ]
        );
        assert_eq!((omitted, cases[0].classname.as_deref()), (0, Some("tests.test_search")));
        // Maven Surefire: one <testsuite> at the root, an <error>.
        let surefire = r#"<testsuite name="com.x.SearchTest" tests="1"><properties><property name="a" value="b"/></properties><testcase name="finds &amp; pages" classname="com.x.SearchTest" time="1.5"><error type="java.lang.NullPointerException"/></testcase></testsuite>"#;
        let cases = test_cases(surefire).unwrap().cases;
        assert_eq!(
            (cases[0].name.as_str(), cases[0].status, cases[0].time_ms),
            ("finds & pages", TestStatus::Error, Some(1500))
        );
        // cargo nextest (a failure with a type), jest-junit (nested suites),
        // go-junit-report (properties and a skipped case with a message).
        let nextest = r#"<?xml version="1.0" encoding="UTF-8"?><testsuites name="nextest-run" tests="2" failures="1" errors="0" uuid="x" timestamp="2026-11-26T10:00:00Z" time="0.02"><testsuite name="search::bin/search" tests="2" disabled="0" errors="0" failures="1"><testcase name="tests::finds" classname="search::bin/search" timestamp="2026-11-26T10:00:00Z" time="0.004"></testcase><testcase name="tests::ignores_case" classname="search::bin/search" timestamp="2026-11-26T10:00:00Z" time="0.005"><failure type="test failure with exit code 101">thread panicked</failure><system-out>out</system-out></testcase></testsuite></testsuites>"#;
        let got: Vec<(String, TestStatus)> =
            test_cases(nextest).unwrap().cases.into_iter().map(|c| (c.name, c.status)).collect();
        assert_eq!(
            got,
            [("tests::finds".into(), TestStatus::Passed), ("tests::ignores_case".into(), TestStatus::Failed)]
        );
        let jest = r#"<testsuites name="jest tests" tests="1" failures="0" errors="0" time="1.2"><testsuite name="search.test.js" errors="0" failures="0" skipped="0" timestamp="2026-11-26T10:00:00" time="1.1" tests="1"><testcase classname="search finds a title" name="search finds a title" time="0.003"></testcase></testsuite></testsuites>"#;
        assert_eq!(test_cases(jest).unwrap().cases[0].status, TestStatus::Passed);
        let go = r#"<testsuites><testsuite tests="2" failures="0" time="0.010" name="example.com/search"><properties><property name="go.version" value="go1.23"></property></properties><testcase classname="search" name="TestFind" time="0.000"></testcase><testcase classname="search" name="TestSlow" time="0.000"><skipped message="search_test.go:12: slow"></skipped></testcase></testsuite></testsuites>"#;
        let got: Vec<TestStatus> = test_cases(go).unwrap().cases.into_iter().map(|c| c.status).collect();
        assert_eq!(got, [TestStatus::Passed, TestStatus::Skipped]);
        // An empty suite is a report with no cases.
        assert_eq!(test_cases("<testsuites><testsuite name='x' tests='0'/></testsuites>").unwrap().cases, Vec::new());
    }

    #[test]
    fn what_is_not_a_report_says_why() {
        assert!(test_cases("<html><body/></html>").unwrap_err().contains("not a JUnit report"));
        assert!(test_cases("<testsuite><testcase name='a'></testsuite>").unwrap_err().contains("not well-formed XML"));
    }

    #[test]
    fn a_report_of_thousands_keeps_its_failures_and_counts_the_rest() {
        let mut xml = String::from("<testsuite>");
        for i in 0..MAX_CASES + 7 {
            xml.push_str(&format!("<testcase name='t{i}'/>"));
        }
        xml.push_str("<testcase name='late'><failure/></testcase></testsuite>");
        let r = test_cases(&xml).unwrap();
        assert_eq!((r.cases.len(), r.omitted, r.omitted_failed), (MAX_CASES, 8, 0));
        assert!(r.cases.iter().any(|c| c.name == "late" && c.status == TestStatus::Failed), "the failure is kept");
    }
}
