/**
 * Plain JSON values: the data that crosses every seam (language ↔ host, runtime ↔ transport, faces ↔ clients).
 * @module
 */

/** Plain JSON data. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
