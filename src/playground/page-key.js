/**
 * The key a page of ours opens with (docs/configuration.md, "The start-up key"), shared by the
 * playground and /docs: the one in the page's own address, which the start-up URLs carry,
 * kept for this tab (sessionStorage: gone when the tab closes, as the start-up key is at the
 * next start) and taken out of the address bar, so that it is not shown, bookmarked or shared
 * with the page's URL; else the one this tab kept. The server never writes a key into a page.
 */

/** One name for both pages, so /docs opened after the playground in the same tab has the key. */
const KEPT_KEY = 'shapeshot-key';

/** @returns {string} the key, or '' when the page has none */
export function openingKey() {
  const address = new URL(location.href);
  const given = address.searchParams.get('key');
  if (given === null) return keptKey() ?? '';
  address.searchParams.delete('key');
  history.replaceState(null, '', `${address.pathname}${address.search}${address.hash}`);
  keepKey(given);
  return given;
}

// Storage turned off in the browser throws: the key then lasts as long as the page.
function keptKey() {
  try {
    return sessionStorage.getItem(KEPT_KEY);
  } catch {
    return null;
  }
}

/** @param {string} key */
export function keepKey(key) {
  try {
    sessionStorage.setItem(KEPT_KEY, key);
  } catch {
    // As above.
  }
}
