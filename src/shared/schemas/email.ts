/** Something@something.tld, without spaces: the browser's quick check before the server's full one. */
export function isPlausibleEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
