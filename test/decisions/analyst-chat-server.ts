import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { analysePrompt } from "../../packages/core/src/decisions/analyst/offline-analyst.js";

/** A local stand-in of an OpenAI-compatible chat-completions API, answering as the offline analyst. */
export interface AnalystChatServer {
  /** The API's `/v1` root. */
  readonly baseUrl: string;
  /** Requests served so far. */
  readonly calls: { model: unknown; authorization: string | undefined }[];
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 that plays `POST /v1/chat/completions`: it reads the system and user
 * messages and answers with the offline analyst's JSON for them, as a model behind vLLM or Ollama
 * would answer in the bundle's output format.
 */
export async function startAnalystChatServer(): Promise<AnalystChatServer> {
  const calls: AnalystChatServer["calls"] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(text) as { model?: unknown; messages: { role: string; content: string }[] };
      calls.push({ model: body.model, authorization: req.headers.authorization });
      const system = body.messages.find((m) => m.role === "system")?.content ?? "";
      const user = body.messages.find((m) => m.role === "user")?.content ?? "";
      const content = JSON.stringify(analysePrompt(system, user));
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
