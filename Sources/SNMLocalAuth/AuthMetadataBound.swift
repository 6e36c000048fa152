import SNMGateway
import SNMWire

/// The bound on a user's metadata that keeps every token of theirs within a request head. A
/// session's access token carries `user_metadata` and `app_metadata` whole, and a request's
/// head holds at most 32 KiB (``HTTPLimits``): past about 24 KiB of claims a user's token is
/// refused everywhere (431), `PUT /user` that would shrink it included, and they are locked out.
/// GoTrue sets no bound of its own (only its 1 MB body limit); here both together are held to
/// 16 KiB of JSON, a token to about 23 KiB, and metadata to 100 levels of nesting (past a few
/// thousand, Postgres's jsonb runs out of stack and answers 500).
///
/// ```swift
/// try AuthMetadataBound.check(value, name: "data")             // one request's metadata
/// try AuthStore(connection).checkMetadataBound(userID: id)  // after a merge or insert
/// ```
enum AuthMetadataBound {
  /// The most bytes of `user_metadata` and `app_metadata` together, as Postgres writes them.
  static let maximumBytes = 16 * 1024
  /// The deepest nesting metadata may have.
  static let maximumDepth = 100

  static let tooLarge = AuthFailure.validationFailed(
    "user_metadata and app_metadata together may hold at most \(maximumBytes) bytes of JSON "
      + "(a session's token must fit in a request header)", status: 422)

  /// Refuses metadata a request sends that could not be kept: nested too deeply, or alone
  /// larger than the bound.
  ///
  /// - Throws: 422 validation_failed.
  static func check(_ value: JSONValue, name: String) throws(AuthFailure) {
    guard !value.nests(deeperThan: maximumDepth) else {
      throw AuthFailure.validationFailed(
        "\(name) may be nested at most \(maximumDepth) levels deep", status: 422)
    }
    guard value.serialized().utf8.count <= maximumBytes else { throw tooLarge }
  }
}
