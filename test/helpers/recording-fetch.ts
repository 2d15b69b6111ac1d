/** A fetch that records every request a client sends, then lets it through. */
export function recordingFetch() {
  const requests: Request[] = [];
  const fetchFn = async (request: Request) => {
    requests.push(request.clone());
    return fetch(request);
  };
  return { requests, fetch: fetchFn };
}
