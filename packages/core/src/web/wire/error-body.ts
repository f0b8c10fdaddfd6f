/** The JSON body of every error answer: a stable code, a client-safe message, optional details. */
export type ErrorBody = {
  [field: string]: unknown;
  code: string;
  message: string;
  correlationId?: string;
};
