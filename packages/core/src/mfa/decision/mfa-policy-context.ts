import type { Authentication } from "../../identity/authentication/authentication.js";
import type { FactorType } from "../factor-type.js";

/** The request as the policy sees it: only what a policy needs, already validated. */
export interface MfaPolicyRequest {
  readonly remoteAddress: string;
  /**
   * The device id of the caller's server-issued, signed device cookie (`PLATFORM_DEVICE`) when its
   * signature verifies, else undefined (a first visit, a forged cookie, a bearer client without
   * cookies). A device is known only when this id is in the user's sign-in history.
   */
  readonly deviceId: string | undefined;
  /**
   * The client's `X-Device-Id` header when well-formed (see `parseDeviceId`). Client-chosen, so at
   * most a hint: it never makes a device known.
   */
  readonly deviceHint?: string | undefined;
  /** The `User-Agent` header, cut to 512 characters; undefined when absent or empty. */
  readonly userAgent: string | undefined;
  readonly path: string;
  readonly method: string;
}

/** The primarily authenticated user. */
export interface MfaPolicyUser {
  readonly userId: string;
  readonly username: string;
  readonly authorities: readonly string[];
}

/** The MFA flow the user would be challenged in. */
export interface MfaPolicyFlow {
  /** The flow's type name (`mfa`, `mfa_2`, `mfa_<name>`). */
  readonly typeName: string;
  /** The secondary factors the flow offers, in registration order. */
  readonly factors: readonly FactorType[];
  /** How many distinct factors complete the flow. */
  readonly requiredFactors: number;
}

/** Everything an MfaPolicyProvider may base its decision on. Frozen. */
export interface MfaPolicyContext {
  readonly request: MfaPolicyRequest;
  readonly user: MfaPolicyUser;
  /** The primary authentication just completed (method, time, factors). */
  readonly primary: Authentication;
  readonly flow: MfaPolicyFlow;
}

/** The part of an HttpExchange the policy context is read from (an HttpExchange fits). */
export interface MfaPolicyExchange {
  readonly remoteAddress: string;
  readonly path: string;
  readonly method: string;
  /** A request header, case-insensitive. */
  header(name: string): string | undefined;
}

/** The header the browser SDK sends its device id in (a UUID kept in localStorage); only a hint. */
export const DEVICE_ID_HEADER = "X-Device-Id";

const DEVICE_ID = /^[A-Za-z0-9._-]{1,128}$/;
const USER_AGENT_MAX = 512;

/**
 * A device id as a policy may use it: 1 to 128 characters of `[A-Za-z0-9._-]`, else undefined. The
 * header is client-controlled, so anything else (markup, control characters, huge values) is dropped
 * rather than passed on to logs or risk engines.
 */
export function parseDeviceId(value: unknown): string | undefined {
  return typeof value === "string" && DEVICE_ID.test(value) ? value : undefined;
}

/**
 * Builds the frozen policy context of a primary authentication on `exchange` for `flow`. `deviceId` is
 * the verified device-cookie id (see `DeviceCookies`); the `X-Device-Id` header becomes `deviceHint`.
 */
export function policyContextFrom(
  exchange: MfaPolicyExchange,
  authentication: Authentication,
  flow: MfaPolicyFlow,
  deviceId?: string,
): MfaPolicyContext {
  const userAgent = exchange.header("user-agent");
  return Object.freeze({
    request: Object.freeze({
      remoteAddress: exchange.remoteAddress,
      deviceId,
      deviceHint: parseDeviceId(exchange.header(DEVICE_ID_HEADER)),
      userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : undefined,
      path: exchange.path,
      method: exchange.method,
    }),
    user: Object.freeze({
      userId: authentication.userId,
      username: authentication.username,
      authorities: Object.freeze([...authentication.authorities]),
    }),
    primary: authentication,
    flow: Object.freeze({
      typeName: flow.typeName,
      factors: Object.freeze([...flow.factors]),
      requiredFactors: flow.requiredFactors,
    }),
  });
}
