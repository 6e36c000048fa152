/// The MIME type of a file from its name's extension, for uploads that do not name one (as
/// supabase-swift asks the system's type table; unknown extensions are
/// `application/octet-stream`).
///
/// ```swift
/// StorageContentType.forName("dogs/bori.JPG")   // "image/jpeg"
/// StorageContentType.forName("notes")           // "application/octet-stream"
/// ```
public enum StorageContentType {
  public static func forName(_ name: String) -> String {
    let file = name.split(separator: "/").last.map(String.init) ?? name
    guard let dot = file.lastIndex(of: "."), dot != file.startIndex else {
      return "application/octet-stream"
    }
    let ext = file[file.index(after: dot)...].lowercased()
    return types[ext] ?? "application/octet-stream"
  }

  static let types: [String: String] = [
    "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
    "webp": "image/webp", "avif": "image/avif", "heic": "image/heic", "heif": "image/heif",
    "svg": "image/svg+xml", "bmp": "image/bmp", "ico": "image/vnd.microsoft.icon",
    "tif": "image/tiff", "tiff": "image/tiff",
    "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html",
    "htm": "text/html", "css": "text/css", "js": "text/javascript", "xml": "application/xml",
    "json": "application/json", "pdf": "application/pdf", "zip": "application/zip",
    "gz": "application/gzip", "tar": "application/x-tar", "wasm": "application/wasm",
    "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "m4a": "audio/mp4",
    "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
    "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf",
  ]
}
