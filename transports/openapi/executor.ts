/**
 * Executes one compiled OpenAPI operation: validate and map the arguments, build the URL (plus the config's query
 * API keys, which only the request ever sees), the header arguments of a write and its body, send them with the
 * operation's method and the config-owned headers (an `oauth2` emitter's access token among them) through the guarded
 * client, retry a read once on 401 with re-read credentials and a new access token (a write is never sent twice),
 * and map the outcome to the result contract. World faults are returned, never thrown; every message is redacted.
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import { guardedFetch, type HttpFailure, type HttpResponse } from "../../src/upstream/http_client.ts";
import type { JsonObject } from "../../src/core/json.ts";
import { hostSchema, plainValidatorError } from "../../src/upstream/host_schema.ts";
import type { CallContext, ToolResult, TransportDeps } from "../../src/upstream/types.ts";
import { mapArgs } from "./args.ts";
import type { CompiledOperation } from "./compiler.ts";
import { connectTimeoutOf } from "../http_common/timeouts.ts";
import type { OpenApiConfig } from "./config.ts";
import { appendQuery, buildPayload, buildUrl, type BuiltPayload } from "./request.ts";
import { failureResult, responseResult } from "./responses.ts";
import { type OAuthSession, oauthSession } from "../http_common/oauth/mod.ts";

/** Executes calls of one upstream. */
export class OperationExecutor {
  readonly #config: OpenApiConfig;
  readonly #deps: TransportDeps;
  readonly #validators = new Map<string, Validator>();
  /** The `oauth2` emitter's tokens (client credentials), when the config has one. */
  readonly #oauth: OAuthSession | undefined;

  constructor(config: OpenApiConfig, deps: TransportDeps) {
    this.#config = config;
    this.#deps = deps;
    const oauth = config.http.oauth;
    this.#oauth = oauth ? oauthSession(oauth, config.baseUrl, deps, config.requestTimeoutMs) : undefined;
  }

  /** Run one call. */
  async call(op: CompiledOperation, args: JsonObject, ctx: CallContext): Promise<ToolResult> {
    const where = `${op.method} ${op.path}`;
    const redact = (r: ToolResult): ToolResult => r.ok ? r : { ...r, message: this.#deps.redactor.redact(r.message) };
    const mapped = mapArgs(op.params, op.defaultArgs, args);
    if (!mapped.ok) return redact(argumentProblem(op, mapped.problems));
    const invalid = this.#validate(op, mapped.values);
    if (invalid.length) return redact(argumentProblem(op, invalid));
    const built = buildUrl(this.#config.baseUrl, op.requestPath, op.params, mapped.values, op.fixedQuery);
    if (!built.ok) return redact(argumentProblem(op, built.problems));
    const payload = buildPayload(op.params, mapped.values, op.body);
    if (!payload.ok) return redact(argumentProblem(op, payload.problems));

    const auth = this.#config.http.auth;
    let response = await this.#send(built.url, payload, ctx, op);
    if (!("status" in response) || response.status !== 401) {
      return redact(afterRedirect(this.#finish(response, where, op), response, built.url));
    }
    // A write is never sent twice: the 401 may have come after the service acted on the request.
    if (ctx.effect === "write") {
      return redact(
        withHint(this.#finish(response, where, op), "writes are not retried; fix the credential and re-run"),
      );
    }
    if (auth.length === 0 && !this.#oauth) {
      return redact(withHint(this.#finish(response, where, op), "this upstream sends no credentials (configure auth)"));
    }
    if (this.#oauth) {
      // the access token may have expired or been revoked: a new one, then one retry
      try {
        await this.#oauth.unauthorized();
      } catch (error) {
        return redact(oauthProblem(error));
      }
    }
    // 401: file credentials may have been rotated — re-materialize (the materializer re-reads) and retry once.
    this.#deps.log(`HTTP 401 from ${where}; re-reading credentials and retrying once`);
    response = await this.#send(built.url, payload, ctx, op);
    const final = this.#finish(response, where, op);
    return redact(
      !final.ok && final.reason === "auth_failed"
        ? withHint(final, "credentials were re-read and the retry also failed")
        : final,
    );
  }

  async #send(
    url: string,
    payload: BuiltPayload & { ok: true },
    ctx: CallContext,
    op: CompiledOperation,
  ): Promise<HttpResponse | HttpFailure | ToolResult> {
    // The program's header arguments first: the config's headers and credentials are set after them and win.
    const headers: Record<string, string> = { ...payload.headers, accept: op.accept };
    if (payload.body !== undefined) headers["content-type"] = op.body!.mediaType;
    for (const [name, value] of this.#config.http.staticHeaders) headers[name] = value;
    let target = url;
    try {
      Object.assign(headers, await this.#deps.credentials.authHeaders(this.#config.http.auth));
      // API keys in the query: registered with the redactor before the URL that carries them exists
      const query = await this.#deps.credentials.authQuery?.(this.#config.http.auth) ?? [];
      target = appendQuery(url, query);
    } catch (error) {
      const why = error instanceof Error ? error.message : "cannot be resolved";
      return {
        ok: false,
        reason: "upstream_unavailable",
        message: `credential problem: ${why}`,
        mutationState: "not_applied",
      };
    }
    if (this.#oauth) {
      try {
        headers.authorization = `Bearer ${await this.#oauth.accessToken()}`;
      } catch (error) {
        return oauthProblem(error);
      }
    }
    const result = await guardedFetch(target, {
      method: op.method,
      keepMethod: true,
      // a write never rides a reused connection, which fetch would silently re-send it on
      freshConnection: ctx.effect === "write",
      headers,
      ...(payload.body !== undefined ? { body: payload.body } : {}),
      timeoutMs: Math.min(ctx.timeoutMs, this.#config.requestTimeoutMs),
      connectTimeoutMs: connectTimeoutOf(this.#config.connectTimeoutMs, this.#deps),
      maxResponseBytes: Math.min(ctx.maxResponseBytes, op.maxResponseBytes),
      signal: ctx.signal,
      fetch: this.#deps.fetch,
      allowedOrigin: this.#config.http.origin,
    });
    // Nothing after the request holds the key-bearing URL: an unredirected answer reports the URL without it.
    return result.ok && result.url === target ? { ...result, url } : result;
  }

  #finish(response: HttpResponse | HttpFailure | ToolResult, where: string, op: CompiledOperation): ToolResult {
    if ("status" in response) return responseResult(response, where, op.resultPath, op.textResponse);
    if ("kind" in response) return failureResult(response, where);
    return response;
  }

  #validate(op: CompiledOperation, values: Record<string, unknown>): string[] {
    let validator = this.#validators.get(op.entry.name);
    if (!validator) {
      // Patterns are matched by RE2 in linear time; one RE2 cannot express is left to the service to judge.
      validator = new Validator(hostSchema(op.entry.inputSchema).schema as never, "2020-12", false);
      this.#validators.set(op.entry.name, validator);
    }
    const result = validator.validate(values);
    if (result.valid) return [];
    return describeErrors(result.errors);
  }
}

/**
 * A failure answered by the target of a followed redirect (303 See Other after a write, 307/308) does not show that
 * the first request was refused: the service may have acted before redirecting, so it is indeterminate.
 */
function afterRedirect(result: ToolResult, response: HttpResponse | HttpFailure | ToolResult, url: string): ToolResult {
  if (result.ok || !("status" in response) || response.url === url) return result;
  return { ...result, mutationState: "indeterminate" };
}

function withHint(result: ToolResult, hint: string): ToolResult {
  return result.ok ? result : { ...result, message: `${result.message}; ${hint}` };
}

/** Argument problems are programmer faults; as a backstop behind the runtime's own check they become data. */
function argumentProblem(op: CompiledOperation, problems: string[]): ToolResult {
  return {
    ok: false,
    reason: "upstream_error",
    message: `invalid arguments for ${op.entry.name}: ${problems.join("; ")}`,
    mutationState: "not_applied", // nothing was sent
  };
}

interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** One line per failing argument, innermost error first. */
function describeErrors(errors: OutputUnit[]): string[] {
  const byArg = new Map<string, string>();
  for (const e of errors) {
    if (e.keyword === "properties" || e.keyword === "allOf" || e.keyword === "$ref") continue;
    if (e.keyword === "required") {
      const m = /"([^"]+)"/.exec(e.error);
      const name = m ? m[1] : "?";
      byArg.set(name, `missing required argument "${name}"`);
      continue;
    }
    const pointer = e.instanceLocation.replace(/^#\/?/, "");
    if (pointer === "") continue;
    const arg = decodeURIComponent(pointer.split("/")[0]).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!byArg.has(arg)) byArg.set(arg, `argument "${pointer}": ${plainValidatorError(e.error)}`);
  }
  return byArg.size ? [...byArg.values()] : ["the arguments do not match the tool's input schema"];
}

/** No OAuth token could be had: the call was not sent. */
function oauthProblem(error: unknown): ToolResult {
  const why = error instanceof Error ? error.message : "no token";
  return { ok: false, reason: "auth_failed", message: `OAuth: ${why}`, mutationState: "not_applied" };
}
