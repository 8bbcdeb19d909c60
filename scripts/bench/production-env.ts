/**
 * What the Dockerfile and `npm start` set for the server besides the site's settings, so that the
 * bench measures the server as production runs it: glibc's malloc gives memory of 128 KB and more
 * back to the system as soon as it is freed, instead of keeping what making a picture took
 * (docs/decisions/047-a-memory-budget-for-making-pictures.md). test/production-env.test.ts keeps
 * the three the same.
 */
export const PRODUCTION_ENV = { GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=131072" };
