// JSON array inputs (`.json`): a document holding one array of objects, read
// as a stream. JsonArrayStream turns the array into JSON lines, one element
// per line, so that the JSON lines reader (jsonl_parser.h) reads it and
// element i of the array is row i:
//
//   [{"a": 1},
//    {"a": 2}]          ->   {"a": 1}\n {"a": 2}\n
//
// Line ends between the tokens of an element become spaces (pretty-printed
// files); a raw line end inside a string, which JSON forbids, becomes a tab
// (also forbidden), so the element stays one malformed row. An element that
// is not a JSON object, or not valid JSON, is a malformed row as a JSON line
// would be. The array itself must be well formed: a document that does not
// open with '[', an empty element (`[1,,2]`, a trailing comma), text after the
// closing ']', or an end of input before it, is an InputError naming the
// input and the element. An input of only whitespace holds no rows.
#pragma once

#include <memory>
#include <string>

#include "io/byte_stream.h"

namespace griffin {

// Wraps `inner` (already decompressed). bytes_consumed() is inner's.
std::unique_ptr<ByteStream> MakeJsonArrayStream(std::unique_ptr<ByteStream> inner, std::string name);

}  // namespace griffin
