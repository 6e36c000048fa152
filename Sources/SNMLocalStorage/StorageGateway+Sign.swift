import SNMGateway
import SNMWire

extension StorageGateway {
  /// POST /object/sign/:bucket/* `{"expiresIn": n}`: a download URL for an object the caller
  /// may read, `/object/sign/<bucket>/<name>?token=<JWT {url, scope: download, iat, exp}>`.
  func sign(_ bucketID: String, _ rawName: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    let body = try jsonBody(request)
    let expiresIn = try expiry(body)
    _ = try StorageKey.bucket(bucketID)
    let name = try StorageKey.object(rawName)
    _ = try findObject(bucketID, name, as: caller.auth, route: .sign(bucket: bucketID, name: name))
    let url = "\(bucketID)/\(name)"
    let token = try signToken(
      [.init("url", .string(url)), .init("scope", .string("download"))], expiresIn: expiresIn)
    return Self.json(.object([.init("signedURL", .string("/object/sign/\(url)?token=\(token)"))]))
  }

  /// POST /object/sign/:bucket `{"expiresIn", "paths"}`: one answer per path, with an error for
  /// those the caller may not read.
  func signMany(_ bucketID: String, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    let body = try jsonBody(request)
    let expiresIn = try expiry(body)
    guard let paths = body["paths"]?.arrayValue else {
      throw .validation("body must have required property 'paths'")
    }
    let names = paths.compactMap(\.stringValue)
    guard names.count == paths.count, !names.isEmpty, names.count <= 1000 else {
      throw .validation("body/paths must be an array of 1 to 1000 strings")
    }
    for name in names { try StorageKey.lookup(name) }
    let visible = try transaction(caller.auth, .signMany(bucket: bucketID)) { tx in
      Set(
        try tx.execute(
          "select name from storage.objects where bucket_id = $1 and name = any($2::text[])",
          [bucketID, SQLText.arrayLiteral(names)]
        ).rows.compactMap { $0[0] })
    }
    var answers: [JSONValue] = []
    for path in names {
      if visible.contains(path) {
        let url = "\(bucketID)/\(path)"
        let token = try signToken(
          [.init("url", .string(url)), .init("scope", .string("download"))], expiresIn: expiresIn)
        answers.append(
          .object([
            .init("error", .null), .init("path", .string(path)),
            .init("signedURL", .string("/object/sign/\(url)?token=\(token)")),
          ]))
      } else {
        answers.append(
          .object([
            .init(
              "error", .string("Either the object does not exist or you do not have access to it")),
            .init("path", .string(path)), .init("signedURL", .null),
          ]))
      }
    }
    return Self.json(.array(answers))
  }

  /// POST /object/upload/sign/:bucket/*: an upload URL valid for two hours, if the caller may
  /// upload there now (checked as Storage's `canUpload`).
  func signUpload(
    _ bucketID: String, _ rawName: String, request: HTTPRequest, caller: StorageCaller
  ) throws(StorageFailure) -> HTTPResponse {
    _ = try StorageKey.bucket(bucketID)
    let name = try StorageKey.object(rawName)
    let upsert = request.headers["x-upsert"] == "true"
    let route = StorageRoute.signUpload(bucket: bucketID, name: name)
    guard try findBucket(bucketID, route: route) != nil else { throw .noSuchBucket(bucketID) }
    var metadata = JSONObject()
    if let type = request.headers["Content-Type"] { metadata["mimetype"] = .string(type) }
    try tryUpload(
      bucketID, name, owner: caller.owner, upsert: upsert, metadata: .object(metadata),
      auth: caller.auth, route: route)
    let url = "\(bucketID)/\(name)"
    var claims: [JSONObject.Member] = []
    if let owner = caller.owner { claims.append(.init("owner", .string(owner))) }
    // Whose update policy decides, when the upload lands, whether it may replace a row there.
    claims.append(.init("role", .string(caller.auth.role)))
    claims += [
      .init("url", .string(url)), .init("upsert", .bool(upsert)),
      .init("scope", .string("upload")),
    ]
    let token = try signToken(claims, expiresIn: settings.signedUploadExpiry)
    return Self.json(
      .object([
        .init("url", .string("/object/upload/sign/\(url)?token=\(token)")),
        .init("token", .string(token)),
      ]))
  }

  /// `expiresIn` of a sign body: a whole number of seconds, at least 1.
  func expiry(_ body: JSONObject) throws(StorageFailure) -> Int {
    guard let value = body["expiresIn"] else {
      throw .validation("body must have required property 'expiresIn'")
    }
    let seconds = value.intValue ?? value.stringValue.flatMap { Int($0) }
    guard let seconds else { throw .validation("body/expiresIn must be integer") }
    guard seconds >= 1 else { throw .validation("body/expiresIn must be >= 1") }
    guard seconds <= 100 * 365 * 24 * 3600 else { throw .invalidParameter("expiresIn") }
    return seconds
  }

  /// A signed-URL token: the claims, then `iat` and `exp`, HS256 with the project's secret.
  func signToken(_ claims: [JSONObject.Member], expiresIn: Int) throws(StorageFailure) -> String {
    let issued = Int(now())
    let all = claims + [.init("iat", .int(issued)), .init("exp", .int(issued + expiresIn))]
    do {
      return try signer.sign(.object(JSONObject(all)))
    } catch {
      throw .internalError("could not sign the URL")
    }
  }

  /// The claims of a signed-URL `token` made for `scope` (`download` or `upload`) and for this
  /// very object, unexpired; Storage's `verifyObjectSignature`.
  func verifySignedToken(_ token: String, bucket: String, name: String, scope: String)
    throws(StorageFailure) -> JSONValue
  {
    let claims: JSONValue
    do {
      claims = try signer.verify(token, now: now(), rules: .jose)
    } catch {
      switch error {
      case .expired: throw .invalidJWT("\"exp\" claim timestamp check failed")
      case .claimNotNumber(let claim): throw .invalidJWT("\"\(claim)\" claim must be a number")
      case .badSignature: throw .invalidJWT("signature verification failed")
      default: throw .invalidJWT("Invalid Compact JWS")
      }
    }
    let tokenScope = claims["scope"]?.stringValue
    let isUpload = claims["upsert"] != nil
    let scoped =
      scope == "upload"
      ? tokenScope == "upload" || (tokenScope == nil && isUpload)
      : tokenScope == "download" || (tokenScope == nil && !isUpload)
    guard scoped else { throw .invalidSignature("Token is not scoped for \(scope)") }
    guard claims["url"]?.stringValue == "\(bucket)/\(name)" else { throw .invalidSignature() }
    return claims
  }
}
