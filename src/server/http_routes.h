// The routes of the HTTP API by name, for metrics labels and 405 answers:
// a fixed set whatever the path, so a client cannot grow the label space.
//
//   RouteOf("POST", "/v1/datasets/steps/validate") == "validate"
//   AllowedMethods("validate") == "POST"
#pragma once

#include <string>

namespace griffin::server {

// Whether `path` is /v1/datasets/{dataset}/validate with one plain segment as
// the dataset (a decoded %2f is a '/', so it is not; nor are "." and "..").
bool IsValidatePath(const std::string& path);

// healthz, prometheus, score, datasets, runs, validate, ui (/ui/...), or other.
std::string RouteOf(const std::string& method, const std::string& path);

// The methods a route takes (the Allow header of a 405).
const char* AllowedMethods(const std::string& route);

}  // namespace griffin::server
