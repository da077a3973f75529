// tests/cpp/response_table_tests.cpp: byte-table tests of the response parser, each fed whole, split at every byte
// offset, one byte at a time and in random pieces; every feeding must give the expected transcript.
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "http/codec/response_parser.hpp"
#include "response_harness.hpp"

namespace {
namespace codec = boltwire::http::codec;
using codec::Method;
using codec::ParserLimits;
using namespace std::string_literals;

struct Case {
  const char *name;
  std::string input;
  std::string expected;  // transcript, see response_harness.hpp
  std::vector<Method> methods = {Method::Get};
  ParserLimits limits = {};
};

ParserLimits small_limits() {
  ParserLimits l;
  l.max_status_line = 32;
  l.max_header_line = 24;
  l.max_header_bytes = 80;
  l.max_header_count = 3;
  l.max_chunk_line = 16;
  l.max_interim_responses = 2;
  return l;
}

ParserLimits chunk_line_limit() {
  ParserLimits l;
  l.max_chunk_line = 16;
  return l;
}

const std::string kOk5 = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
const std::string kChunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
const std::string kChunkedH = "H 200 1.1 \"OK\" chunked keep [Transfer-Encoding: chunked]";
const std::string kBad = "HTTP/1.1 200 OK\r\n";  // status line before a malformed field

std::vector<Case> make_cases() {
  std::vector<Case> c;
  // ---- normal responses --------------------------------------------------------------------------------------
  c.push_back({"content-length", kOk5, "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | X"});
  c.push_back({"content-length zero", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"OK\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"ows trimmed, empty value, obs-text",
               "HTTP/1.1 200 OK\r\nServer:  nginx \t\r\nX-Empty:\r\nX-Utf8: caf\xc3\xa9 au lait\r\nContent-Length: 2\r\n\r\nhi",
               "H 200 1.1 \"OK\" len=2 keep [Server: nginx] [X-Empty: ] [X-Utf8: caf\\xc3\\xa9 au lait] "
               "[Content-Length: 2] | B \"hi\" | C | X"});
  // names and values longer than sixteen bytes (the SSE2 scans of fields.cpp), with their rarer bytes past that
  c.push_back({"long names and values, rare tchars and tabs past 16 bytes",
               "HTTP/1.1 200 OK\r\nX-Very-Long-Header-Name_with!tchars: abcdefghijklmnopqrst\tuvwxyz \xff\x80 end\r\n"
               "Access-Control-Allow-Origin: *\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"OK\" len=0 keep [X-Very-Long-Header-Name_with!tchars: abcdefghijklmnopqrst\\tuvwxyz "
               "\\xff\\x80 end] [Access-Control-Allow-Origin: *] [Content-Length: 0] | C | X"});
  c.push_back({"reason with spaces and tab", "HTTP/1.1 404 Not \tFound Here\r\nContent-Length: 0\r\n\r\n",
               "H 404 1.1 \"Not \\tFound Here\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"empty reason after SP", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"status line without reason or SP", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"HTTP/1.0 closes by default", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nokNEXT",
               "H 200 1.0 \"OK\" len=2 close [Content-Length: 2] | B \"ok\" | C | X \"NEXT\""});
  c.push_back({"HTTP/1.0 keep-alive sequence",
               "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nokHTTP/1.0 204 No Content\r\n\r\n",
               "H 200 1.0 \"OK\" len=2 keep [Connection: Keep-Alive] [Content-Length: 2] | B \"ok\" | C | "
               "H 204 1.0 \"No Content\" none close | C | X"});
  c.push_back({"Connection: close with surplus bytes",
               "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nxjunk",
               "H 200 1.1 \"OK\" len=1 close [Connection: close] [Content-Length: 1] | B \"x\" | C | X \"junk\""});
  c.push_back({"Connection list, case-insensitive close",
               "HTTP/1.1 200 OK\r\nConnection: upgrade, , CLOSE\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"OK\" len=0 close [Connection: upgrade, , CLOSE] [Content-Length: 0] | C | X"});
  c.push_back({"HTTP/1.9 read as 1.1", "HTTP/1.9 200 OK\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"OK\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"identical Content-Length list and repeat",
               "HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\ncontent-length: 003\r\n\r\nabc",
               "H 200 1.1 \"OK\" len=3 keep [Content-Length: 3, 3] [content-length: 003] | B \"abc\" | C | X"});
  c.push_back({"largest Content-Length, then EOF",
               "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nab",
               "H 200 1.1 \"OK\" len=9223372036854775807 keep [Content-Length: 9223372036854775807] | B \"ab\" | "
               "E IncompleteBody"});
  c.push_back({"body bytes that look like HTTP",
               "HTTP/1.1 200 OK\r\nContent-Length: 21\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\0\n"s,
               "H 200 1.1 \"OK\" len=21 keep [Content-Length: 21] | B \"HTTP/1.1 200 OK\\r\\n\\r\\n\\0\\n\" | C | X"});
  // ---- keep-alive sequences ----------------------------------------------------------------------------------
  c.push_back({"three responses in one buffer",
               kOk5 + kChunkedHead + "3\r\nabc\r\n0\r\n\r\n" + "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
               "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | " + kChunkedH +
                   " | B \"abc\" | C | H 404 1.1 \"Not Found\" len=0 keep [Content-Length: 0] | C | X"});
  c.push_back({"keep-alive then close-delimited",
               "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\n\r\nrest of stream",
               "H 204 1.1 \"No Content\" none keep | C | H 200 1.1 \"OK\" eof close | B \"rest of stream\" | C | X"});
  // ---- chunked -----------------------------------------------------------------------------------------------
  c.push_back({"chunked", kChunkedHead + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
               kChunkedH + " | B \"hello world\" | C | X"});
  c.push_back({"chunked upper-case hex, leading zeros",
               kChunkedHead + "00A\r\n0123456789\r\n1f\r\nabcdefghijklmnopqrstuvwxyz01234\r\n0000\r\n\r\n",
               kChunkedH + " | B \"0123456789abcdefghijklmnopqrstuvwxyz01234\" | C | X"});
  c.push_back({"chunk extensions ignored",
               kChunkedHead + "5;name=value;q=\"a;b\\\"c\"\r\nhello\r\n2 \t; ext\r\n!!\r\n0;last=\xff\r\n\r\n",
               kChunkedH + " | B \"hello!!\" | C | X"});
  c.push_back({"chunked with trailers",
               kChunkedHead + "3\r\nabc\r\n0\r\nX-Checksum: abc\r\nX-Two:  2 \r\n\r\n",
               kChunkedH + " | B \"abc\" | C [X-Checksum: abc] [X-Two: 2] | X"});
  c.push_back({"chunked body with CRLF inside data", kChunkedHead + "4\r\n\r\n\r\n\r\n0\r\n\r\n",
               kChunkedH + " | B \"\\r\\n\\r\\n\" | C | X"});
  c.push_back({"Transfer-Encoding case-insensitive, OWS",
               "HTTP/1.1 200 OK\r\nTransfer-Encoding:  Chunked \r\n\r\n1\r\nz\r\n0\r\n\r\n",
               "H 200 1.1 \"OK\" chunked keep [Transfer-Encoding: Chunked] | B \"z\" | C | X"});
  c.push_back({"chunked then Connection: close",
               "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\nz\r\n0\r\n\r\nsurplus",
               "H 200 1.1 \"OK\" chunked close [Transfer-Encoding: chunked] [Connection: close] | B \"z\" | C | "
               "X \"surplus\""});
  // ---- 1xx ---------------------------------------------------------------------------------------------------
  c.push_back({"100 Continue then 200", "HTTP/1.1 100 Continue\r\n\r\n" + kOk5,
               "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | X"});
  c.push_back({"100, 102, 103 with headers, then 204",
               "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\n"
               "Link: </style.css>; rel=preload\r\n\r\nHTTP/1.1 204 No Content\r\nX: y\r\n\r\n",
               "H 204 1.1 \"No Content\" none keep [X: y] | C | X"});
  c.push_back({"101 Switching Protocols reported, tail left",
               "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello",
               "H 101 1.1 \"Switching Protocols\" none keep upgrade [Upgrade: websocket] [Connection: Upgrade] | "
               "U \"\\x81\\x05hello\""});
  c.push_back({"101 at EOF", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n",
               "H 101 1.1 \"Switching Protocols\" none keep upgrade [Upgrade: h2c] | U \"\""});
  c.push_back({"100 Continue then 101", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 OK\r\n\r\nxy",
               "H 101 1.1 \"OK\" none keep upgrade | U \"xy\""});
  // ---- request-method and status dependent framing --------------------------------------------------------------
  c.push_back({"CONNECT 200 is a tunnel", "HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01tls",
               "H 200 1.1 \"Connection established\" none keep upgrade | U \"\\x16\\x03\\x01tls\"", {Method::Connect}});
  c.push_back({"CONNECT 407 has a body",
               "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 2\r\n\r\nno",
               "H 407 1.1 \"Proxy Authentication Required\" len=2 keep [Content-Length: 2] | B \"no\" | C | X",
               {Method::Connect}});
  c.push_back({"HEAD: Content-Length without body, then GET",
               "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + kOk5,
               "H 200 1.1 \"OK\" none keep [Content-Length: 100] | C | "
               "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | X",
               {Method::Head, Method::Get}});
  c.push_back({"HEAD: chunked without body", kChunkedHead + kOk5,
               "H 200 1.1 \"OK\" none keep [Transfer-Encoding: chunked] | C | "
               "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | X",
               {Method::Head, Method::Get}});
  c.push_back({"204 ignores Content-Length", "HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n" + kOk5,
               "H 204 1.1 \"No Content\" none keep [Content-Length: 7] | C | "
               "H 200 1.1 \"OK\" len=5 keep [Content-Length: 5] | B \"hello\" | C | X"});
  c.push_back({"304 ignores Content-Length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 500\r\nETag: \"x\"\r\n\r\n",
               "H 304 1.1 \"Not Modified\" none keep [Content-Length: 500] [ETag: \\\"x\\\"] | C | X"});
  // ---- close-delimited -----------------------------------------------------------------------------------------
  c.push_back({"close-delimited body", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall\r\nthe rest",
               "H 200 1.1 \"OK\" eof close [Content-Type: text/plain] | B \"all\\r\\nthe rest\" | C | X"});
  c.push_back({"close-delimited empty body, HTTP/1.0", "HTTP/1.0 200 OK\r\n\r\n",
               "H 200 1.0 \"OK\" eof close | C | X"});
  c.push_back({"close-delimited despite keep-alive", "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nz",
               "H 200 1.1 \"OK\" eof close [Connection: keep-alive] | B \"z\" | C | X"});
  c.push_back({"clean EOF before any response", "", "X"});

  // ---- status-line errors ----------------------------------------------------------------------------------------
  c.push_back({"no SP after version", "HTTP/1.1200 OK\r\n\r\n", "E InvalidStatusLine"});
  c.push_back({"TLS record instead of HTTP", "\x15\x03\x03\x00\x02\x02\x46"s, "E InvalidStatusLine"});
  c.push_back({"lower-case http", "http/1.1 200 OK\r\n\r\n", "E InvalidStatusLine"});
  c.push_back({"empty line before status line", "\r\n" + kOk5, "E InvalidStatusLine"});
  c.push_back({"version without minor", "HTTP/1 200 OK\r\n\r\n", "E InvalidStatusLine"});
  c.push_back({"HTTP/2.0", "HTTP/2.0 200 OK\r\n\r\n", "E UnsupportedVersion"});
  c.push_back({"HTTP/0.9", "HTTP/0.9 200 OK\r\n\r\n", "E UnsupportedVersion"});
  c.push_back({"two-digit status", "HTTP/1.1 20 OK\r\n\r\n", "E InvalidStatusCode"});
  c.push_back({"four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", "E InvalidStatusCode"});
  c.push_back({"status 099", "HTTP/1.1 099 Low\r\n\r\n", "E InvalidStatusCode"});
  c.push_back({"status 600", "HTTP/1.1 600 High\r\n\r\n", "E InvalidStatusCode"});
  c.push_back({"letters for status", "HTTP/1.1 abc OK\r\n\r\n", "E InvalidStatusCode"});
  c.push_back({"control byte in reason", "HTTP/1.1 200 O\x01K\r\n\r\n", "E InvalidReasonPhrase"});
  c.push_back({"NUL in reason", "HTTP/1.1 200 O\0K\r\n\r\n"s, "E InvalidReasonPhrase"});
  c.push_back({"CR in reason", "HTTP/1.1 200 O\rK\r\n\r\n", "E InvalidReasonPhrase"});
  c.push_back({"bare LF after status line", "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", "E BareLineFeed"});
  c.push_back({"status line too long", "HTTP/1.1 200 " + std::string(40, 'r') + "\r\n\r\n", "E StatusLineTooLong",
               {Method::Get}, small_limits()});
  c.push_back({"status line exactly at the limit (32 bytes)", "HTTP/1.1 200 " + std::string(17, 'r') + "\r\n\r\n",
               "H 200 1.1 \"" + std::string(17, 'r') + "\" eof close | C | X", {Method::Get}, small_limits()});
  // ---- field-line errors ---------------------------------------------------------------------------------------
  c.push_back({"bare LF after a field", kBad + "A: b\nContent-Length: 0\r\n\r\n", "E BareLineFeed"});
  c.push_back({"bare LF as the final empty line", kBad + "A: b\r\n\n", "E BareLineFeed"});
  c.push_back({"obsolete line folding", kBad + "A: b\r\n  folded\r\n\r\n", "E ObsoleteLineFolding"});
  c.push_back({"whitespace before the first field", kBad + " A: b\r\n\r\n", "E ObsoleteLineFolding"});
  c.push_back({"non-token header name", kBad + "A@b: c\r\n\r\n", "E InvalidHeaderName"});
  c.push_back({"empty header name", kBad + ": c\r\n\r\n", "E InvalidHeaderName"});
  c.push_back({"missing colon", kBad + "NoColonHere\r\n\r\n", "E MissingColon"});
  c.push_back({"whitespace before colon", kBad + "Content-Length : 5\r\n\r\nhello", "E WhitespaceBeforeColon"});
  c.push_back({"NUL in header value", kBad + "A: b\0c\r\n\r\n"s, "E NulInHeaderValue"});
  c.push_back({"CR in header value", kBad + "A: b\rc\r\n\r\n", "E CrInHeaderValue"});
  c.push_back({"CR before CRLF", kBad + "A: b\r\r\n\r\n", "E CrInHeaderValue"});
  c.push_back({"DEL in header value", kBad + "A: b\x7f\r\n\r\n", "E InvalidHeaderValue"});
  c.push_back({"DEL past 16 bytes of a value", kBad + "A: 0123456789abcdefghij\x7fk\r\n\r\n", "E InvalidHeaderValue"});
  c.push_back({"NUL past 16 bytes of a value", kBad + "A: 0123456789abcdefghij\0k\r\n\r\n"s, "E NulInHeaderValue"});
  c.push_back({"CR past 16 bytes of a value", kBad + "A: 0123456789abcdefghij\rk\r\n\r\n", "E CrInHeaderValue"});
  c.push_back({"non-token byte past 16 bytes of a name", kBad + "Abcdefghijklmnopqr@s: c\r\n\r\n",
               "E InvalidHeaderName"});
  c.push_back({"space before colon past 16 bytes", kBad + "Abcdefghijklmnopqrs : c\r\n\r\n",
               "E WhitespaceBeforeColon"});
  c.push_back({"header line too long", kBad + "X-Long: " + std::string(20, 'v') + "\r\n\r\n", "E HeaderLineTooLong",
               {Method::Get}, small_limits()});
  c.push_back({"header section too large",
               kBad + "A: 1234567890123456\r\nB: 1234567890123456\r\nC: 1234567890123456\r\n\r\n",
               "E HeadersTooLarge", {Method::Get}, small_limits()});
  c.push_back({"too many headers", kBad + "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", "E TooManyHeaders", {Method::Get},
               small_limits()});
  c.push_back({"header count exactly at the limit", kBad + "A: 1\r\nB: 2\r\nC: 3\r\n\r\n",
               "H 200 1.1 \"OK\" eof close [A: 1] [B: 2] [C: 3] | C | X", {Method::Get}, small_limits()});
  // ---- framing errors ------------------------------------------------------------------------------------------
  c.push_back({"Content-Length letters", kBad + "Content-Length: abc\r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length negative", kBad + "Content-Length: -1\r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length plus sign", kBad + "Content-Length: +5\r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length empty", kBad + "Content-Length: \r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length empty list element", kBad + "Content-Length: 5,\r\n\r\nhello", "E InvalidContentLength"});
  c.push_back({"Content-Length inner space", kBad + "Content-Length: 5 5\r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length hex", kBad + "Content-Length: 0x10\r\n\r\n", "E InvalidContentLength"});
  c.push_back({"Content-Length list of different values", kBad + "Content-Length: 5, 6\r\n\r\nhello",
               "E ConflictingContentLength"});
  c.push_back({"duplicate Content-Length lines differ", kBad + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
               "E ConflictingContentLength"});
  c.push_back({"Content-Length 2^63", kBad + "Content-Length: 9223372036854775808\r\n\r\n", "E ContentLengthOverflow"});
  c.push_back({"Content-Length 30 digits", kBad + "Content-Length: 999999999999999999999999999999\r\n\r\n",
               "E ContentLengthOverflow"});
  c.push_back({"Transfer-Encoding with Content-Length",
               kBad + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
               "E ContentLengthWithTransferEncoding"});
  c.push_back({"Transfer-Encoding gzip only", kBad + "Transfer-Encoding: gzip\r\n\r\n", "E TransferEncodingNotChunked"});
  c.push_back({"chunked not final", kBad + "Transfer-Encoding: chunked, gzip\r\n\r\n", "E TransferEncodingNotChunked"});
  c.push_back({"Transfer-Encoding empty", kBad + "Transfer-Encoding: \r\n\r\n", "E TransferEncodingNotChunked"});
  c.push_back({"gzip before chunked", kBad + "Transfer-Encoding: gzip, chunked\r\n\r\n", "E UnsupportedTransferCoding"});
  c.push_back({"chunked twice over two lines",
               kBad + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", "E UnsupportedTransferCoding"});
  c.push_back({"Transfer-Encoding in HTTP/1.0", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
               "E TransferEncodingInHttp10"});
  c.push_back({"too many interim responses",
               "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n",
               "E TooManyInterimResponses", {Method::Get}, small_limits()});
  // ---- chunk errors --------------------------------------------------------------------------------------------
  c.push_back({"chunk size not hex", kChunkedHead + "g\r\n", kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size missing", kChunkedHead + "\r\n", kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size negative", kChunkedHead + "-5\r\nhello\r\n", kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size 0x prefix", kChunkedHead + "0x5\r\nhello\r\n", kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size then junk", kChunkedHead + "5 x\r\nhello\r\n", kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size trailing space without extension", kChunkedHead + "5 \r\nhello\r\n",
               kChunkedH + " | E InvalidChunkSize"});
  c.push_back({"chunk size overflow", kChunkedHead + "8000000000000000\r\n", kChunkedH + " | E ChunkSizeOverflow"});
  c.push_back({"chunk extension with control byte", kChunkedHead + "5;a\x01\r\nhello\r\n",
               kChunkedH + " | E InvalidChunkExtension"});
  c.push_back({"chunk line too long", kChunkedHead + "5;" + std::string(20, 'e') + "\r\nhello\r\n0\r\n\r\n",
               kChunkedH + " | E ChunkLineTooLong", {Method::Get}, chunk_line_limit()});
  c.push_back({"chunk line exactly at the limit", kChunkedHead + "5;" + std::string(12, 'e') + "\r\nhello\r\n0\r\n\r\n",
               kChunkedH + " | B \"hello\" | C | X", {Method::Get}, chunk_line_limit()});
  c.push_back({"chunk data longer than its size", kChunkedHead + "5\r\nhelloX\r\n0\r\n\r\n",
               kChunkedH + " | B \"hello\" | E MissingChunkCrlf"});
  c.push_back({"bare LF after chunk size", kChunkedHead + "5\nhello\r\n", kChunkedH + " | E BareLineFeed"});
  c.push_back({"bare LF after chunk data", kChunkedHead + "5\r\nhello\n0\r\n\r\n",
               kChunkedH + " | B \"hello\" | E BareLineFeed"});
  c.push_back({"CR without LF in chunk line", kChunkedHead + "5\rhello", kChunkedH + " | E BareCarriageReturn"});
  c.push_back({"CR without LF after chunk data", kChunkedHead + "5\r\nhello\rX", kChunkedH + " | B \"hello\" | E BareCarriageReturn"});
  c.push_back({"obs-fold in trailers", kChunkedHead + "0\r\nX: a\r\n b\r\n\r\n", kChunkedH + " | E ObsoleteLineFolding"});
  c.push_back({"NUL in trailer value", kChunkedHead + "0\r\nX: a\0\r\n\r\n"s, kChunkedH + " | E NulInHeaderValue"});
  c.push_back({"bare LF ending trailers", kChunkedHead + "0\r\n\n", kChunkedH + " | E BareLineFeed"});
  // ---- EOF in the middle ---------------------------------------------------------------------------------------
  c.push_back({"EOF inside the head", "HTTP/1.1 200 OK\r\nContent-Le", "E IncompleteHead"});
  c.push_back({"EOF after an interim response", "HTTP/1.1 100 Continue\r\n\r\n", "E IncompleteHead"});
  c.push_back({"EOF inside a Content-Length body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
               "H 200 1.1 \"OK\" len=10 keep [Content-Length: 10] | B \"short\" | E IncompleteBody"});
  c.push_back({"EOF inside chunk data", kChunkedHead + "a\r\nabc", kChunkedH + " | B \"abc\" | E IncompleteBody"});
  c.push_back({"EOF before the last chunk", kChunkedHead + "3\r\nabc\r\n", kChunkedH + " | B \"abc\" | E IncompleteBody"});
  c.push_back({"EOF inside trailers", kChunkedHead + "0\r\nX: y\r\n", kChunkedH + " | E IncompleteBody"});
  return c;
}

std::string describe(const std::vector<std::string_view> &chunks) {
  std::string s;
  std::size_t at = 0;
  for (std::size_t i = 0; i + 1 < chunks.size(); ++i) {
    at += chunks[i].size();
    s += (s.empty() ? "" : ",") + std::to_string(at);
  }
  return s.empty() ? "whole" : "split at " + s;
}

// Feeds `chunks` and compares; reports only the first mismatch of a case so a broken case prints one line.
bool expect_run(const Case &c, const std::vector<std::string_view> &chunks) {
  const bwtest::Run run = bwtest::run_parser(chunks, c.methods, c.limits);
  const std::string where = std::string(c.name) + " (" + describe(chunks) + ")";
  bool ok = bwtest::check(run.violation.empty(), (where + ": " + run.violation).c_str(), __FILE__, __LINE__);
  ok = bwtest::check_eq(run.transcript, c.expected, where.c_str(), __FILE__, __LINE__) && ok;
  return ok;
}

}  // namespace

void run_response_table_tests() {
  const std::vector<Case> cases = make_cases();
  std::mt19937 rng(20240611);
  std::size_t runs = 0;
  for (const Case &c : cases) {
    const std::string_view in = c.input;
    if (!expect_run(c, {in})) continue;
    bool ok = true;
    for (std::size_t k = 0; k <= in.size() && ok; ++k, ++runs) ok = expect_run(c, {in.substr(0, k), in.substr(k)});
    if (!ok) continue;
    std::vector<std::string_view> bytes;
    for (std::size_t i = 0; i < in.size(); ++i) bytes.push_back(in.substr(i, 1));
    if (!expect_run(c, bytes)) continue;
    for (int r = 0; r < 20 && ok; ++r, ++runs) {  // random pieces, empty ones included
      std::vector<std::string_view> pieces;
      std::size_t pos = 0;
      while (pos < in.size()) {
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 7)(rng);
        pieces.push_back(in.substr(pos, n));
        pos += std::min(n, in.size() - pos);
      }
      ok = expect_run(c, pieces);
    }
    runs += 2;
  }
  std::printf("response table: %zu cases, %zu feedings\n", cases.size(), runs);
}
