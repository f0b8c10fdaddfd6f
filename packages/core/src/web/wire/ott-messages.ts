// What a browser or client and the one-time-token (magic link) endpoints exchange.

/** `POST /ott/generate` body. */
export type OttGenerateBody = {
  username: string;
};

/** The answer of `POST /ott/generate`: the same whether or not the account exists. */
export type OttGenerateAnswer = {
  success: true;
  message: string;
  /** Where the code or link is entered (`GET /login/ott`). */
  submitPageUrl: string;
};

/** `POST /login/ott` body: the token from the link or code, and optionally the username it was sent to. */
export type OttLoginBody = {
  token: string;
  username?: string;
};
