// Calls to the server's JSON API. Every failure becomes an ApiError whose message
// is the server's own ("error" field) or says that the server could not be reached.

export class ApiError extends Error {
  constructor(message, status, body) {
    super(message);
    this.status = status;
    this.body = body || {};
  }
}

async function call(method, url, body, signal) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (err.name === "AbortError") {
      const aborted = new ApiError("the request was replaced by a newer one", 0);
      aborted.aborted = true;
      throw aborted;
    }
    throw new ApiError("the server cannot be reached; is `mscsp serve` still running?", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `the server answered ${response.status}`;
    throw new ApiError(message, response.status, data);
  }
  return data;
}

export const getJSON = (url) => call("GET", url);
/** POST `body` as JSON; `signal` (an AbortSignal) lets a newer request replace this one. */
export const postJSON = (url, body, signal) => call("POST", url, body, signal);
