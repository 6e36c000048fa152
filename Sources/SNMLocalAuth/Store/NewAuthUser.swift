import SNMWire

/// What a new auth.users row holds: each way of making a user (sign-up by e-mail or phone, an
/// anonymous sign-in, a magic link or OTP for an unknown address, an invite, the admin API) sets
/// some of these and leaves the rest to the table's defaults.
struct NewAuthUser {
  var email = ""
  var phone = ""
  /// Stored as a bcrypt hash; `nil` for a user with no password yet.
  var password: String?
  /// `raw_app_meta_data`'s `provider` and `providers` ("email", "phone"); `nil` for none.
  var provider: String?
  /// Merged over the provider's members.
  var appMetadata: JSONValue = .object([])
  var userMetadata: JSONValue = .object([])
  var emailConfirmed = false
  var phoneConfirmed = false
  var invited = false
  var anonymous = false
  /// `last_sign_in_at` now: the user is signed in as it is made.
  var signedIn = false
  /// `banned_until` that many seconds from now; 0 for none.
  var bannedSeconds: Double = 0
}
