import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpExchange, RequestPipeline } from "@keyward/core/web";
import { sendNodeResponse } from "srvx/node";
import { answerOf, type ExchangeBindingOptions } from "./exchange-binding.js";
import { nodeExchange, writeNodeAnswer } from "./node-binding.js";
import type { NodeListener } from "./node-listener.js";
import type { RequestObserver } from "./request-observer.js";

/** What createHttpApp's request handling is made of, shared by its h3 handler and its direct listener. */
export interface DirectParts {
  readonly binding: ExchangeBindingOptions;
  /** The request's correlation id (the caller's when well-formed, else a new one), set on the exchange. */
  correlate(exchange: HttpExchange): string;
  readonly pipeline: RequestPipeline;
  readonly observer: RequestObserver | undefined;
  /** The error answer (after the ErrorTranslator family), as the h3 handler answers it. */
  answerError(
    error: unknown,
    method: string,
    path: string,
    id: string,
    headers?: Iterable<[string, string]>,
  ): Response;
}

/**
 * createHttpApp's Node listener: a request `nodeExchange` takes (a plain origin-form request without
 * a body, over HTTP/1) runs the same steps as through h3 (correlation id, request pipeline, answer,
 * access line and metrics) and its answer goes straight to Node's response (`writeNodeAnswer`);
 * every other request, and one whose exchange cannot be built, goes to `fallback` (srvx's handler
 * over the h3 app), which answers it as before. The answer's bytes are the ones the h3 path writes.
 */
export function directNodeListener(parts: DirectParts, fallback: NodeListener): NodeListener {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = performance.now();
    let exchange: HttpExchange | undefined;
    try {
      exchange = nodeExchange(req, parts.binding);
    } catch {
      // The h3 path builds the same exchange and answers its refusal (an error answer, no exchange).
      exchange = undefined;
    }
    if (exchange === undefined) return fallback(req, res);
    const correlationId = parts.correlate(exchange);
    let status: number;
    try {
      await parts.pipeline.run(exchange);
      const answer = answerOf(exchange, { "x-correlation-id": correlationId, "x-request-id": correlationId });
      status = answer.status;
      writeNodeAnswer(res, answer);
    } catch (error) {
      const headers = exchange.response.headers;
      const response = parts.answerError(error, exchange.method, exchange.rawPath, correlationId, headers);
      status = response.status;
      // srvx writes it as it writes every error answer of the h3 path; a failed write ends the response.
      await sendNodeResponse(res, response).catch(() => {
        if (!res.writableEnded) res.destroy();
      });
    }
    parts.observer?.answered(exchange, status, startedAt, correlationId);
  };
}
