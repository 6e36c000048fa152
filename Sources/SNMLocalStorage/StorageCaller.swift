import SNMGateway
import SNMWire

/// Who a Storage request runs as: the gateway's caller, the role and claims of its verified token
/// (or of the API key when no token came), and whether a token verified at all, which Storage
/// calls "authenticated" (the anon key's JWT is authenticated, as role anon).
///
/// ```swift
/// let caller = StorageCaller(auth: requestAuth, isAuthenticated: true)
/// caller.owner        // the token's `sub`, stored as the owner of what it uploads
/// ```
public typealias StorageCaller = GatewayCaller

extension GatewayCaller {
  /// The token's `sub`: the user who will own what this request creates.
  var owner: String? { auth.userID }

  /// Storage's own superuser: service_role, which bypasses RLS.
  static let superuser = RequestAuth(
    role: "service_role", claims: .object([.init("role", .string("service_role"))]),
    isAnonymous: false)
}

/// The limits of the project's Storage, as Supabase Storage's configuration sets them.
public struct StorageSettings: Sendable, Equatable {
  /// The most one object may hold, whatever its bucket allows (Storage's `FILE_SIZE_LIMIT`;
  /// the Supabase CLI's local default is 50 MiB).
  public var fileSizeLimit: Int64 = 50 * 1024 * 1024
  /// Seconds a signed upload URL stays valid (Storage's default: two hours).
  public var signedUploadExpiry = 7200
  /// The most objects `empty bucket` deletes.
  public var emptyBucketMax = 200_000

  public init() {}
}
