extension AuthFailure {
  /// Any `/admin/oauth` request by an admin while the project's OAuth server is off.
  static let oauthServerDisabled = AuthFailure(
    status: 404, code: "feature_disabled", message: "OAuth server is disabled")
  static let oauthClientNotFound = AuthFailure(
    status: 404, code: "oauth_client_not_found", message: "OAuth client not found")
}
