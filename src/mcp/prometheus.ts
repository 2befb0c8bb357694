/**
 * The server's operational metrics, exposed at `GET /metrics` of the HTTP face in the Prometheus text exposition
 * format (with `prom-client`, on a registry of ptc's own: no default collectors, which would read /proc files ptc is
 * not granted). What is counted:
 *
 * - `ptc_evaluations_total{outcome}`: every `lisp_eval` / `lisp_session_eval` answer — `ok`, `returned`, `failed`
 *   (the program's own `fail`), or the refusal or error reason (`busy`, `timeout`, `memory_limit`, …);
 * - `ptc_evaluation_duration_seconds`: a histogram of evaluations that ran (wall clock, tool calls included);
 * - `ptc_upstream_calls_total{server,outcome}`: each upstream call an evaluation made (`ok` or its failure reason),
 *   from the call records the evaluation returns;
 * - gauges read at scrape time: sandbox processes by state, open sessions, HTTP connections, process memory.
 *
 * Label values are bounded: outcomes are reason codes (anything else is `error`), servers are configured names.
 * @module
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { EngineEvalResult } from "../engine/types.ts";

/** What the gauges read at scrape time. */
export interface MetricSources {
  /** Sandbox processes: pooled busy and idle, and those owned by sessions. */
  sandbox(): { busy: number; idle: number; sessions: number };
  /** Open sessions (undefined without `--sessions`). */
  sessions?(): number;
  /** HTTP connections open now and refused at accept since start (HTTP face only). */
  connections?(): { open: number; refused: number };
  /** Evaluation permits held now, and the gate's limit. */
  gate(): { inFlight: number; limit: number };
}

const REASON = /^[a-z][a-z0-9_]{0,39}$/;

/** A label-safe outcome: reason codes pass, anything else is `error`. */
function outcomeLabel(value: string | undefined): string {
  return value !== undefined && REASON.test(value) ? value : "error";
}

/** The metrics of one `ptc mcp` process. */
export class ServerMetrics {
  readonly registry = new Registry();
  #evaluations: Counter<"outcome">;
  #duration: Histogram;
  #upstream: Counter<"server" | "outcome">;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    this.#evaluations = new Counter({
      name: "ptc_evaluations_total",
      help: "Evaluations answered, by outcome (ok, returned, failed, or the error or refusal reason).",
      labelNames: ["outcome"],
      registers,
    });
    this.#duration = new Histogram({
      name: "ptc_evaluation_duration_seconds",
      help: "Wall-clock time of evaluations that ran, tool calls included.",
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.#upstream = new Counter({
      name: "ptc_upstream_calls_total",
      help: "Upstream tool calls made by evaluations, by upstream and outcome (ok or the failure reason).",
      labelNames: ["server", "outcome"],
      registers,
    });
    new Gauge({
      name: "ptc_sandbox_processes",
      help: "Sandbox processes by state: busy and idle pooled processes, and processes owned by sessions.",
      labelNames: ["state"],
      registers,
      collect() {
        const s = sources.sandbox();
        this.set({ state: "busy" }, s.busy);
        this.set({ state: "idle" }, s.idle);
        this.set({ state: "session" }, s.sessions);
      },
    });
    new Gauge({
      name: "ptc_evaluations_in_flight",
      help: "Evaluation permits held now (the concurrency gate).",
      registers,
      collect() {
        this.set(sources.gate().inFlight);
      },
    });
    new Gauge({
      name: "ptc_evaluations_max_concurrent",
      help: "The concurrency gate's limit (--max-concurrent-calls).",
      registers,
      collect() {
        this.set(sources.gate().limit);
      },
    });
    if (sources.sessions) {
      const sessions = sources.sessions;
      new Gauge({
        name: "ptc_sessions_open",
        help: "Open lisp sessions.",
        registers,
        collect() {
          this.set(sessions());
        },
      });
    }
    if (sources.connections) {
      const connections = sources.connections;
      new Gauge({
        name: "ptc_http_connections_open",
        help: "HTTP client connections open now.",
        registers,
        collect() {
          this.set(connections().open);
        },
      });
      new Counter({
        name: "ptc_http_connections_refused_total",
        help: "HTTP connections closed at accept because --max-connections were open.",
        registers,
        collect() {
          this.reset();
          this.inc(connections().refused);
        },
      });
    }
    new Gauge({
      name: "process_resident_memory_bytes",
      help: "Resident memory of the ptc server process (its sandbox processes not included).",
      registers,
      collect() {
        this.set(Deno.memoryUsage().rss);
      },
    });
    new Gauge({
      name: "ptc_process_heap_used_bytes",
      help: "JavaScript heap in use in the ptc server process.",
      registers,
      collect() {
        this.set(Deno.memoryUsage().heapUsed);
      },
    });
  }

  /**
   * Count an evaluation that ran: its outcome (`outcome` when the face answered otherwise than the result says, e.g.
   * `validation_error`), its duration and its upstream calls.
   */
  evaluation(result: EngineEvalResult, outcome?: string): void {
    const fromResult = result.ok ? result.status : outcomeLabel(result.reason);
    this.#evaluations.inc({ outcome: outcome !== undefined ? outcomeLabel(outcome) : fromResult });
    this.#duration.observe(result.elapsedMs / 1000);
    for (const call of result.calls) {
      this.#upstream.inc({
        server: call.server, // a configured upstream's name: a bounded set
        outcome: call.status === "ok" ? "ok" : outcomeLabel(call.reason),
      });
    }
  }

  /** Count an evaluation refused before it ran (`busy`, `args_error`, `shutting_down`, …). */
  refused(reason: string): void {
    this.#evaluations.inc({ outcome: outcomeLabel(reason) });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
