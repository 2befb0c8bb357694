/**
 * Payload metrics: how much upstream data a program consumed versus how much it handed back to the model.
 * @module
 */
import type { CallRecord } from "../engine/types.ts";

/** Payload metrics of one evaluation (the `ptc_metrics` of debug responses). */
export interface PayloadMetrics {
  upstream_call_count: number;
  upstream_ok_count: number;
  upstream_error_count: number;
  /** Bytes of successful upstream payloads. */
  upstream_result_bytes: number;
  /** Bytes of the text handed back to the model (result + prints). */
  returned_bytes: number;
  /** upstream_result_bytes / returned_bytes, two decimals; null when either is 0. */
  payload_reduction_ratio: number | null;
  estimated_upstream_tokens: number;
  estimated_returned_tokens: number;
  token_estimate_method: "utf8_bytes_div_4";
}

const encoder = new TextEncoder();

/** UTF-8 byte length of a string. */
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** Compute the payload metrics from the call records and the text returned to the model. */
export function payloadMetrics(calls: CallRecord[], returnedText: string): PayloadMetrics {
  let ok = 0;
  let upstreamBytes = 0;
  for (const c of calls) {
    if (c.status === "ok") {
      ok++;
      upstreamBytes += c.bytes;
    }
  }
  const returned = utf8Bytes(returnedText);
  const ratio = upstreamBytes > 0 && returned > 0 ? Math.round((upstreamBytes / returned) * 100) / 100 : null;
  return {
    upstream_call_count: calls.length,
    upstream_ok_count: ok,
    upstream_error_count: calls.length - ok,
    upstream_result_bytes: upstreamBytes,
    returned_bytes: returned,
    payload_reduction_ratio: ratio,
    estimated_upstream_tokens: Math.ceil(upstreamBytes / 4),
    estimated_returned_tokens: Math.ceil(returned / 4),
    token_estimate_method: "utf8_bytes_div_4",
  };
}
