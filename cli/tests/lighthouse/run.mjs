// Runs Lighthouse (its mobile defaults: simulated slow 4G, 4x slower CPU) on each page of a list,
// in one headless Chromium, and prints one JSON line per page: the four category scores, the
// largest contentful paint, and the audits that lost points. Driven by `cli/tests/lighthouse.rs`.
//
// The performance score moves with the machine's load (its 4x CPU slowdown multiplies whatever the
// 2-core machine was doing; single runs of a room were seen 6 points under their neighbours): a
// page whose first run scores under `rerun_below` is run twice more and the median of the three is
// reported, with every run's score. With `runs`, every page is run that many times (measuring the
// noise).
//
// Two gatherers that feed no score are left out, a third of each run's time: the full-page
// screenshot (pictures for the HTML report, which nobody opens here) and the back/forward cache
// check (`bf-cache`, weight 0: it navigates away and back).
//
// Input (JSON on stdin): { "modules": node_modules dir, "chrome": binary, "runs": number | null,
//   "rerun_below": a performance score (0 to 100),
//   "pages": [{ "name", "url", "storage": {key: value} | null, "skip": [audit ids] }] }
// A page with `storage` gets those localStorage entries first (a player's seat) and is run without
// Lighthouse's storage reset.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const input = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => { text += chunk; });
  process.stdin.on('end', () => resolve(text));
}));
const require = createRequire(join(input.modules, 'package.json'));
const puppeteer = require('puppeteer-core');
const { default: lighthouse } = await import(pathToFileURL(join(input.modules, 'lighthouse/core/index.js')));

const browser = await puppeteer.launch({
  executablePath: input.chrome,
  headless: true,
  userDataDir: mkdtempSync(join(tmpdir(), 'tabula-lighthouse-')),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', '--lang=en-US'],
});
try {
  const run = async (page) => {
    const tab = await browser.newPage();
    if (page.storage) {
      // A same-origin file with nothing to cache, so the page under test still loads cold.
      await tab.goto(new URL('/robots.txt', page.url).href);
      await tab.evaluate((entries) => {
        for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
      }, page.storage);
    }
    const flags = { output: 'json', logLevel: 'error', disableStorageReset: Boolean(page.storage) };
    const config = {
      extends: 'lighthouse:default',
      settings: { skipAudits: [...(page.skip || []), 'bf-cache'], disableFullPageScreenshot: true },
    };
    const result = await lighthouse(page.url, flags, config, tab);
    await tab.close();
    return result.lhr;
  };
  for (const page of input.pages) {
    const reports = [await run(page)];
    const wanted = input.runs ?? ((reports[0].categories.performance?.score ?? 0) * 100 < input.rerun_below ? 3 : 1);
    while (reports.length < wanted) reports.push(await run(page));
    const performance = (r) => r.categories.performance?.score ?? 0;
    reports.sort((a, b) => performance(a) - performance(b));
    const report = reports[Math.floor(reports.length / 2)];
    const failing = [];
    for (const [id, category] of Object.entries(report.categories)) {
      for (const ref of category.auditRefs) {
        const audit = report.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1 && id !== 'performance') {
          failing.push(`${id}/${ref.id}: ${audit.title}`);
        }
      }
    }
    const score = (id) => Math.round((report.categories[id]?.score ?? 0) * 100);
    console.log(JSON.stringify({
      name: page.name,
      performance: score('performance'),
      performance_runs: reports.map((r) => Math.round(performance(r) * 100)),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      lcp_ms: Math.round(report.audits['largest-contentful-paint']?.numericValue ?? 0),
      tbt_ms: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
      cls: report.audits['cumulative-layout-shift']?.numericValue ?? 0,
      failing,
      runtime_error: report.runtimeError?.message ?? null,
    }));
  }
} finally {
  await browser.close();
}
