/// The path of an absolute URL, without the query (`/storage/v1/object/...` of
/// `http://127.0.0.1:54321/storage/v1/object/...?download`): what `explain` shows first.
package enum URLPath {
  package static func of(_ url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    let path = rest[slash...]
    return String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
  }
}
