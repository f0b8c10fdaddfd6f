// TEST DOUBLE, NOT A DATABASE. Part of the in-process MongoDB wire-protocol test double (see README.md).
// The message framing of the MongoDB wire protocol: OP_MSG both ways, the legacy OP_QUERY a driver may
// send for its first handshake, and the OP_REPLY that answers it.
import { type Document, deserialize, serialize } from "bson";

/** Opcodes the double reads or writes. */
export const OpCode = { reply: 1, query: 2004, compressed: 2012, msg: 2013 } as const;

/** Largest message the double accepts (the `maxMessageSizeBytes` it announces). */
export const MAX_MESSAGE_BYTES = 48_000_000;
const HEADER_BYTES = 16;
const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;
/** bson options for everything read off the wire: int64 promoted to number where exact, regex as RegExp. */
const READ_OPTIONS = { promoteLongs: true, promoteValues: true, bsonRegExp: false } as const;

/** One request read off a socket: the command document and how to answer it. */
export interface WireRequest {
  requestId: number;
  /** `msg` answers with OP_MSG, `query` (a legacy handshake) with OP_REPLY. */
  kind: "msg" | "query";
  /** The command: OP_MSG body with its document sequences merged in, or the OP_QUERY query. */
  command: Document;
  /** OP_MSG moreToCome: the client expects no answer (unacknowledged write). */
  noReply: boolean;
}

/** A malformed or unsupported message: the connection is closed, as a server would. */
export class WireProtocolError extends Error {}

/** Length of the first complete message in `buf`, or 0 when more bytes are needed. */
export function completeMessageLength(buf: Buffer): number {
  if (buf.length < 4) return 0;
  const length = buf.readInt32LE(0);
  if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) {
    throw new WireProtocolError(`message length ${length} out of range`);
  }
  return buf.length >= length ? length : 0;
}

/** Parses one complete message (header included). */
export function parseMessage(msg: Buffer): WireRequest {
  const requestId = msg.readInt32LE(4);
  const opCode = msg.readInt32LE(12);
  if (opCode === OpCode.msg) return parseOpMsg(msg, requestId);
  if (opCode === OpCode.query) return parseOpQuery(msg, requestId);
  if (opCode === OpCode.compressed) {
    throw new WireProtocolError("OP_COMPRESSED is not implemented (the double announces no compressor)");
  }
  throw new WireProtocolError(`opcode ${opCode} is not implemented`);
}

function parseOpMsg(msg: Buffer, requestId: number): WireRequest {
  const flags = msg.readUInt32LE(HEADER_BYTES);
  const end = flags & CHECKSUM_PRESENT ? msg.length - 4 : msg.length;
  let offset = HEADER_BYTES + 4;
  let body: Document | undefined;
  const sequences: [string, Document[]][] = [];
  while (offset < end) {
    const kind = msg.readUInt8(offset);
    offset += 1;
    if (kind === 0) {
      const size = msg.readInt32LE(offset);
      body = deserialize(msg.subarray(offset, offset + size), READ_OPTIONS);
      offset += size;
    } else if (kind === 1) {
      const size = msg.readInt32LE(offset);
      const sectionEnd = offset + size;
      const nameEnd = msg.indexOf(0, offset + 4);
      const identifier = msg.toString("utf8", offset + 4, nameEnd);
      const docs: Document[] = [];
      for (let p = nameEnd + 1; p < sectionEnd; ) {
        const docSize = msg.readInt32LE(p);
        docs.push(deserialize(msg.subarray(p, p + docSize), READ_OPTIONS));
        p += docSize;
      }
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new WireProtocolError(`OP_MSG section kind ${kind} is not valid`);
    }
  }
  if (!body) throw new WireProtocolError("OP_MSG without a body section");
  for (const [identifier, docs] of sequences) body[identifier] = docs;
  return { requestId, kind: "msg", command: body, noReply: (flags & MORE_TO_COME) !== 0 };
}

function parseOpQuery(msg: Buffer, requestId: number): WireRequest {
  let offset = HEADER_BYTES + 4; // flags
  const nameEnd = msg.indexOf(0, offset);
  const fullCollectionName = msg.toString("utf8", offset, nameEnd);
  offset = nameEnd + 1 + 8; // numberToSkip, numberToReturn
  const size = msg.readInt32LE(offset);
  let query = deserialize(msg.subarray(offset, offset + size), READ_OPTIONS);
  if (!fullCollectionName.endsWith(".$cmd")) {
    throw new WireProtocolError(`legacy OP_QUERY on ${fullCollectionName} is not implemented`);
  }
  if (query.$query && typeof query.$query === "object") query = query.$query as Document;
  query.$db = fullCollectionName.slice(0, -".$cmd".length);
  return { requestId, kind: "query", command: query, noReply: false };
}

/** Encodes the answer to `request` (OP_MSG, or OP_REPLY for a legacy OP_QUERY). */
export function encodeReply(request: WireRequest, responseId: number, reply: Document): Buffer {
  const doc = serialize(reply, { ignoreUndefined: true });
  const header = Buffer.alloc(HEADER_BYTES);
  let prefix: Buffer;
  if (request.kind === "msg") {
    prefix = Buffer.alloc(5); // flagBits 0, section kind 0
    header.writeInt32LE(OpCode.msg, 12);
  } else {
    prefix = Buffer.alloc(20); // responseFlags, cursorID (int64), startingFrom, numberReturned
    prefix.writeInt32LE(8, 0); // AwaitCapable, as servers answer
    prefix.writeInt32LE(1, 16);
    header.writeInt32LE(OpCode.reply, 12);
  }
  header.writeInt32LE(HEADER_BYTES + prefix.length + doc.length, 0);
  header.writeInt32LE(responseId, 4);
  header.writeInt32LE(request.requestId, 8);
  return Buffer.concat([header, prefix, doc]);
}
