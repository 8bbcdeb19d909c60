// PGlite is one session, and @electric-sql/pglite-socket serves several connections on it by
// queueing each message a connection sends and running them one at a time. It keeps one
// connection's messages together only inside a transaction. But a query with parameters is a cycle
// of messages (Parse, Bind, Describe, Execute, then Sync), which `pg` writes one by one: on a busy
// machine they arrive apart, another connection's Parse runs between this one's Parse and Bind, and
// both fail ("bind message supplies 1 parameters, but prepared statement "" requires 9"). A command
// polling through the socket beside a busy site (npm run backup, decision 051) met it.
//
// The server asks the database `isInTransaction()` to decide whether it must keep serving the last
// connection. The database handed to it here also answers true while the last message it ran left
// a cycle open (its last message neither Sync nor a simple Query), so each cycle runs whole.
// Plain JavaScript: the embedded database's thread (pglite-worker.mjs) imports it as it is.

/** The type of the last whole message in `bytes` (a buffer of the frontend protocol's messages). */
function lastMessageType(bytes) {
  let offset = 0;
  let type;
  while (offset + 5 <= bytes.length) {
    type = bytes[offset];
    const length =
      ((bytes[offset + 1] << 24) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 8) | bytes[offset + 4]) >>> 0;
    if (length < 4) break;
    offset += 1 + length;
  }
  return type;
}

const SYNC = 0x53; // "S"
const QUERY = 0x51; // "Q"
const TERMINATE = 0x58; // "X"

/**
 * `db` as the socket server sees it: every member as the database's own (bound to it: PGlite keeps
 * private fields), but `isInTransaction()` true while a connection's extended-protocol cycle is open.
 */
export function keepProtocolCyclesTogether(db) {
  let cycleOpen = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === "isInTransaction") return () => cycleOpen || target.isInTransaction();
      if (property === "execProtocolRawStream")
        return async (message, options) => {
          // A startup message has no type byte (it begins with its length, whose first byte is 0):
          // it is never part of a cycle.
          if (message[0] === 0) cycleOpen = false;
          else {
            const type = lastMessageType(message);
            if (type !== undefined) cycleOpen = !(type === SYNC || type === QUERY || type === TERMINATE);
          }
          return target.execProtocolRawStream(message, options);
        };
      // The server runs ROLLBACK for a connection that left in the middle of a transaction (or, now,
      // of a cycle): its cycle is over.
      if (property === "exec")
        return async (...args) => {
          cycleOpen = false;
          return target.exec(...args);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
