import { benchHttp } from './http.ts';
import { mib } from './stats.ts';

/**
 * `npm run bench`: every benchmark of the project in one run, printed as
 * tables. Figures depend on the machine; compare runs on the same one.
 */
console.log(`# svc bench: node ${process.version}, ${process.platform}/${process.arch}`);
await benchHttp();
console.log(`\npeak RSS: ${mib(process.resourceUsage().maxRSS * 1024)}`);
