// naive: every charge at once, each sent once, waiting as long as it takes.
//
// The lab calls charge(id) once for every customer, as the customer arrives (all at
// once, in a batch), and the client is done with that customer when the promise settles.

export async function charge(id, { baseUrl }) {
  const res = await fetch(`${baseUrl}/charge`, {
    method: 'POST',
    body: JSON.stringify({ id, amount: 1000 }),
  });
  return { id, status: res.status };
}
