// Type declarations for dependencies that ship none.
declare module 'html-encoding-sniffer' {
  /** WHATWG encoding sniffing: BOM, transport label, meta prescan, default; returns the encoding name. */
  function sniffHTMLEncoding(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHTMLEncoding;
}
