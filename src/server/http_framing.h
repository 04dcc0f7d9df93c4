// The framing checks of an HTTP request's headers, before its body is read:
// the headers that say where the body ends must say it one way only, or a
// proxy in front and this server could split the stream differently (request
// smuggling). cpp-httplib takes the first Content-Length and parses it
// loosely, so these checks run before it reads any body.
//
//   if (std::optional<std::string> bad = FramingError(req.headers)) -> 400, close
#pragma once

#include <optional>
#include <string>

#include <httplib.h>

namespace griffin::server {

// A one-line reason when the framing headers are unusable: a Content-Length
// that is not a plain decimal number (-5, abc, 1e3, "5, 6"), two different
// Content-Lengths, Transfer-Encoding other than exactly "chunked", or both
// Transfer-Encoding and Content-Length. nullopt when they are fine (also when
// neither is given: no body).
std::optional<std::string> FramingError(const httplib::Headers& headers);

// Methods the service never allows on any path (answered 405).
bool IsForbiddenMethod(const std::string& method);

// A request with neither Content-Length nor Transfer-Encoding has no body
// (RFC 9112 6.3): sets Content-Length 0 on such a POST, PUT or PATCH, which
// cpp-httplib would otherwise read until the client closes.
void NoLengthMeansEmpty(httplib::Request& req);

}  // namespace griffin::server
