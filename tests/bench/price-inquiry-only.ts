/** Prints the price-inquiry figure of `npm run bench` alone (embedded database; PostgreSQL with BENCH_DATABASE_URL). */
import { benchPriceInquiry } from './http';

console.log(JSON.stringify(await benchPriceInquiry(), null, 2));
process.exit(0);
