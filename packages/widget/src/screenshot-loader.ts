// Loads the screenshot chunk (a second script from the API server) the first time it is
// needed, and takes a screenshot with it.

type Capture = (options: { exclude: Element; outline: DOMRect | null }) => Promise<Blob>;

let loading: Promise<Capture> | null = null;

function load(apiBase: string): Promise<Capture> {
  loading ??= new Promise<Capture>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${apiBase}/widget-screenshot.js`;
    script.async = true;
    script.onload = () => {
      const capture = (window as unknown as { __svcScreenshot?: Capture }).__svcScreenshot;
      if (capture) resolve(capture);
      else reject(new Error('no capture'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('the screenshot script did not load'));
    };
    document.head.append(script);
  });
  return loading;
}

export async function takeScreenshot(
  apiBase: string,
  options: { exclude: Element; outline: DOMRect | null },
): Promise<Blob> {
  const capture = await load(apiBase);
  return capture(options);
}
