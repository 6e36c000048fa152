import SNMGateway

/// Storage's errors, worded as Supabase Storage words them (its `ERRORS` catalog).
extension StorageFailure {
  static func noSuchBucket(_ bucket: String) -> StorageFailure {
    StorageFailure(404, "NoSuchBucket", error: "Bucket not found", "Bucket not found")
  }

  static func noSuchKey(_ key: String) -> StorageFailure {
    StorageFailure(404, "NoSuchKey", error: "not_found", "Object not found")
  }

  static func invalidKey(_ key: String, _ reason: String? = nil) -> StorageFailure {
    StorageFailure(400, "InvalidKey", "Invalid key: \(key)" + (reason.map { " " + $0 } ?? ""))
  }

  static func invalidBucketName(_ bucket: String) -> StorageFailure {
    StorageFailure(400, "InvalidBucketName", error: "Invalid Input", "Bucket name invalid")
  }

  static func accessDenied(_ message: String, httpStatus: Int? = nil) -> StorageFailure {
    StorageFailure(
      403, "AccessDenied", error: "Unauthorized", message.isEmpty ? "Access denied" : message,
      httpStatus: httpStatus)
  }

  static let rlsViolation = accessDenied("new row violates row-level security policy")

  static func keyAlreadyExists(_ key: String) -> StorageFailure {
    StorageFailure(409, "KeyAlreadyExists", error: "Duplicate", "The resource already exists")
  }

  static func bucketAlreadyExists(_ bucket: String) -> StorageFailure {
    StorageFailure(409, "BucketAlreadyExists", error: "Duplicate", "The resource already exists")
  }

  static let resourceAlreadyExists = StorageFailure(
    409, "ResourceAlreadyExists", error: "Duplicate", "The resource already exists")

  static func bucketNotEmpty(_ bucket: String) -> StorageFailure {
    StorageFailure(409, "ResourceNotEmpty", "The bucket you tried to delete is not empty")
  }

  static func entityTooLarge(entity: String = "object", limit: String = "the maximum allowed size")
    -> StorageFailure
  {
    StorageFailure(
      413, "EntityTooLarge", error: "Payload too large", "The \(entity) exceeded \(limit)")
  }

  static func invalidMimeType(_ type: String) -> StorageFailure {
    StorageFailure(
      415, "InvalidMimeType", error: "invalid_mime_type", "mime type \(type) is not supported")
  }

  static func invalidJWT(_ message: String) -> StorageFailure {
    StorageFailure(400, "InvalidJWT", message.isEmpty ? "Invalid JWT" : message)
  }

  static func invalidSignature(_ message: String = "Invalid signature") -> StorageFailure {
    StorageFailure(400, "InvalidSignature", message)
  }

  static func invalidRequest(_ message: String) -> StorageFailure {
    StorageFailure(400, "InvalidRequest", message.isEmpty ? "Invalid Request" : message)
  }

  /// A body that does not match the route's schema, as Fastify's validation words it.
  static func validation(_ message: String) -> StorageFailure {
    StorageFailure(400, "InvalidRequest", error: "FastifyError", message)
  }

  static func invalidParameter(_ parameter: String, _ message: String? = nil) -> StorageFailure {
    StorageFailure(400, "InvalidParameter", message ?? "Invalid Parameter \(parameter)")
  }

  static let noContentProvided = StorageFailure(400, "InvalidRequest", "No content provided")

  static let invalidFileSizeLimit = StorageFailure(
    400, "InvalidRequest", "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B")

  static let invalidRange = StorageFailure(
    416, "InvalidRange", error: "invalid_range", "invalid range provided", httpStatus: 416)

  static func internalError(_ message: String = "Internal server error") -> StorageFailure {
    StorageFailure(500, "InternalError", message)
  }

  static func unableToEmpty(_ message: String) -> StorageFailure {
    StorageFailure(409, "InvalidRequest", message)
  }

  static let notFoundRoute = StorageFailure(
    404, "NotFound", error: "Not Found", "Route not found", httpStatus: 404)

  /// A Postgres error as Storage's `DBError.fromDBError` maps it.
  static func database(_ error: PGError) -> StorageFailure {
    switch error.sqlState ?? "" {
    case "42501":
      return accessDenied(
        error.message.contains("row-level security")
          ? "new row violates row-level security policy" : error.message)
    case "23505":
      return resourceAlreadyExists
    case "23503":
      if error.detail?.contains("is still referenced from table") == true {
        return StorageFailure(
          409, "ResourceReferenced",
          "The resource could not be updated or removed due to a foreign key constraint")
      }
      return StorageFailure(404, "InvalidRequest", "The related resource does not exist")
    case "55P03":
      return StorageFailure(423, "ResourceLocked", "The resource is locked")
    case "57014":
      return StorageFailure(
        544, "DatabaseTimeout", "The connection to the database timed out", httpStatus: 544)
    case "22P02":
      return invalidParameter("value", error.message)
    case "22021", "22P05":
      // Text Postgres cannot hold (a NUL) that no check before the query caught.
      return invalidRequest("The request holds a character the database cannot store")
    case "54000":
      return invalidRequest("The request holds a value too long for the database")
    case "PGRST003":
      return StorageFailure(
        429, "SlowDown", error: "too_many_connections",
        "Too many connections issued to the database", httpStatus: 429)
    default:
      if error.kind == .connection {
        return StorageFailure(500, "DatabaseError", "database error, code: connection")
      }
      return StorageFailure(500, "DatabaseError", "database error, code: \(error.sqlState ?? "?")")
    }
  }
}
