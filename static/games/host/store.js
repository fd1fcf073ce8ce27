// @ts-check
// The host screen's memory on the device (IndexedDB): the last known log and table, the
// taps waiting for the network, the running timers. One record per game and name.
const DB = "mafia-host";
const STORE = "games";

/**
 * @template T
 * @param {IDBRequest<T>} req
 * @returns {Promise<T>}
 */
function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * @typedef {object} Store
 * @property {(name: string) => Promise<any>} get
 * @property {(name: string, value: unknown) => Promise<void>} put
 */

/**
 * @param {number} game
 * @returns {Promise<Store>}
 */
export async function openStore(game) {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  const db = await request(open);
  /** @param {string} name */
  const key = (name) => `${game}:${name}`;
  return {
    get: (name) => request(db.transaction(STORE).objectStore(STORE).get(key(name))),
    put(name, value) {
      const tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(structuredClone(value), key(name));
      return new Promise((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    },
  };
}
