import { benchApp } from './app.ts';
import { benchDedup } from './dedup.ts';
import { benchEstimate } from './estimate.ts';
import { benchEngine } from './engine.ts';
import { benchHttp } from './http.ts';
import { benchJudgmentChoice } from './judgment-choice.ts';
import { benchJudgmentEncoding } from './judgment-encoding.ts';
import { benchJudgmentText } from './judgment-text.ts';
import { benchMemory } from './memory.ts';
import { mib } from './stats.ts';

/**
 * `npm run bench`: every benchmark of the project in one run, printed as
 * tables. Figures depend on the machine; compare runs on the same one.
 * BENCH_SAMPLES_PER_TYPE scales the engine part (default 25,000 x 4 types);
 * BENCH_DEDUP_ROWS the near-duplicate part (default 1,000,000 rows);
 * BENCH_APP_ROWS the app part (default 1,000,000 rows; needs Chromium);
 * BENCH_MEMORY_REQUESTS the server-memory part (default 20,000 requests).
 */
const perType = Number(process.env.BENCH_SAMPLES_PER_TYPE ?? 25_000);
console.log(`# svc bench: node ${process.version}, ${process.platform}/${process.arch}`);
await benchEngine(perType);
await benchHttp();
await benchMemory(Number(process.env.BENCH_MEMORY_REQUESTS ?? 20_000));
await benchJudgmentText();
await benchJudgmentEncoding();
await benchJudgmentChoice();
await benchEstimate();
await benchDedup(Number(process.env.BENCH_DEDUP_ROWS ?? 1_000_000));
await benchApp(Number(process.env.BENCH_APP_ROWS ?? 1_000_000));
console.log(`\npeak RSS: ${mib(process.resourceUsage().maxRSS * 1024)}`);
