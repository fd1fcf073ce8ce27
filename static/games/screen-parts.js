// What the pages that follow a frame by themselves share: the venue's screen
// (static/games/screen.js), a tournament followed live (static/tournaments/live.js), the
// producer's view (static/live/producer.js) and the stream overlays (static/live/overlay.js).
// Each reads its first frame and its words from the page's JSON, finds its parts by
// data-screen, writes points as the reader's language does and polls its frame every
// second with the ETag (a 304 costs the server no database).

const POLL_MS = 1000;

/** @param {string} id */
export function readJson(id) {
  return JSON.parse(document.getElementById(id)?.textContent ?? "null");
}

/**
 * @param {ParentNode} root
 * @param {string} name
 */
export function part(root, name) {
  const node = root.querySelector(`[data-screen="${name}"]`);
  if (!(node instanceof HTMLElement)) throw new Error(`no [data-screen=${name}]`);
  return node;
}

/**
 * Points as the reader's language writes them: 1,20 in Russian; signed (+1,20) where
 * a page shows what a game brought rather than a total.
 * @param {{signed: boolean}} options
 */
export function pointsFormat({ signed }) {
  return new Intl.NumberFormat(document.documentElement.lang || undefined, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? "exceptZero" : "auto",
  });
}

/**
 * Polls url every second with its ETag, hands each new frame to take and draws again,
 * changed or not: the speeches' clocks count down. The offline line (if the page has one)
 * says when the server does not answer; a 404 (a revoked link) ends the polling through
 * gone, when the page has a way to say so. `now` asks the first poll at once (a page that
 * embeds no first frame).
 * @param {{url: string, take: (frame: any) => void, drawAll: () => void,
 *   offline?: HTMLElement | null, offlineText?: string, gone?: () => void,
 *   now?: boolean}} options
 */
export function pollEverySecond({
  url, take, drawAll, offline = null, offlineText = "", gone, now = false,
}) {
  let etag = "";
  /** @param {boolean} down */
  const sayOffline = (down) => {
    if (!offline) return;
    offline.hidden = !down;
    offline.textContent = down ? offlineText : "";
  };
  const poll = async () => {
    try {
      const headers = etag ? { "If-None-Match": etag } : undefined;
      const answer = await fetch(url, { headers, cache: "no-store" });
      if (answer.status === 404 && gone) {
        gone();
        return; // the link no longer works: nothing more to ask
      }
      if (answer.status === 200) {
        etag = answer.headers.get("ETag") ?? "";
        take(await answer.json());
      }
      sayOffline(answer.status !== 200 && answer.status !== 304);
    } catch {
      sayOffline(true);
    }
    drawAll();
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, now ? 0 : POLL_MS);
}
