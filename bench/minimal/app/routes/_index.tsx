export default function Minimal() {
  return <h1>Hola</h1>;
}
