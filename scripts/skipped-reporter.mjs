// A node:test reporter that writes one JSON line per skipped test or suite (its file, name and
// reason) to its destination, for scripts/run-tests.mjs to name them all in one closing line.
// Node's own summary counts skipped tests only: a suite skipped as a whole (the browser suites
// where Chromium is missing) is not in its `# skipped`.
export default async function* skippedReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, skip, file, details } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ file, name, reason: typeof skip === 'string' ? skip : '', suite: details?.type === 'suite' })}\n`;
  }
}
