import { paths } from "#shared/paths.ts";

/** Every route of SPEC section 2. */
export const pageRoutesForTests = Object.values(paths);
