/** CI=true, as CI services set it; CI=false or CI=0 is not CI. In CI nothing is skipped for want of PostgreSQL. */
export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.CI) && !["false", "0"].includes(env.CI!.toLowerCase());
}
