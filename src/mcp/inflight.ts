/**
 * Counts HTTP responses still being written, so a graceful shutdown can wait for the answers of calls that just
 * finished before it closes the MCP handler (which would cut their streams). A response counts until its body has
 * been read to the end or cancelled.
 * @module
 */

/** The in-flight response tracker. */
export class InFlightResponses {
  #active = 0;
  #idle: (() => void)[] = [];

  /** Responses still being written. */
  get active(): number {
    return this.#active;
  }

  /**
   * Start counting a request before its handler runs (the handler may finish its work before it returns a
   * response). The returned function hands over the response to send: it stays counted until its body ends.
   */
  begin(): (res: Response | undefined) => Response | undefined {
    this.#active++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.#active--;
      if (this.#active === 0) { for (const resolve of this.#idle.splice(0)) resolve(); }
    };
    return (res) => {
      if (!res?.body) {
        end();
        return res;
      }
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              end();
              controller.close();
            } else controller.enqueue(value);
          } catch (e) {
            end();
            controller.error(e);
          }
        },
        cancel(reason) {
          end();
          return reader.cancel(reason);
        },
      });
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    };
  }

  /** Resolves once no tracked response is being written. */
  idle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }
}
